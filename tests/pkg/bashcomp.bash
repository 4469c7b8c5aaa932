# bashcomp.bash COMPLETION: completes each line of standard input as bash
# would at its end (a trailing space: a new, empty word), with
# bash-completion loaded and COMPLETION sourced; prints the line, a tab and
# the candidates, space-separated.
# shellcheck disable=SC1090,SC1091
. /usr/share/bash-completion/bash_completion || exit 2
. "$1" || exit 2
complete -p pdwiz >/dev/null || { echo "no completion for pdwiz" >&2; exit 2; }
while IFS= read -r line; do
	COMP_LINE=$line
	COMP_POINT=${#line}
	read -ra COMP_WORDS <<<"$line"
	[[ $line == *" " ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_pdwiz pdwiz "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	printf '%s\t%s\n' "$line" "${COMPREPLY[*]}"
done
