# zcomp.zsh FPATHDIR: completes each line of standard input in an
# interactive zsh (on a pseudo-terminal: zsh/zpty) with compinit and the
# functions of FPATHDIR, as a Tab at its end would; prints the line, a tab
# and the words completion offered (every word given to compadd, recorded
# by a wrapper around it), space-separated.
zmodload zsh/zpty || exit 2
zpty z zsh -f -i || exit 2
zpty -w z "PS1='%% ' PROMPT_EOL_MARK='' RPS1=''; unsetopt zle_bracketed_paste 2>/dev/null; fpath=($1 \$fpath); autoload -Uz compinit; compinit -u -D; (( \$+_comps[pdwiz] )) || print NO''COMPDEF; bindkey -e; print RE''ADY"
zpty -r -m z out '*READY*' || exit 2
[[ $out == *NOCOMPDEF* ]] && { print -u2 "compinit found no completion for pdwiz in $1"; exit 2; }
# In that shell: compadd records what it adds; a Tab completes and then
# prints an end marker.
zpty -w z "compadd() { if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\\ * ]]; then builtin compadd \"\$@\"; return; fi; local -a hits; builtin compadd -A hits \"\$@\"; local h; for h in \$hits; do print -r -- \"ZH\"\"IT:\$h\"; done; builtin compadd \"\$@\"; }"
zpty -w z "zcomp_end() { print -r -- ZE''ND; }; zcomp_tab() { comppostfuncs=(zcomp_end); zle complete-word; }; zle -N zcomp_tab; bindkey '^I' zcomp_tab; print SET''UP"
zpty -r -m z out '*SETUP*' || exit 2

integer n=0
while IFS= read -r line; do
	(( n++ ))
	zpty -w -n z "$line"$'\t'
	zpty -r -m z out '*ZEND*' || { print -u2 "no end of completion for: $line"; exit 2; }
	zpty -w -n z $'\C-e\C-u'"print -r -- M''ARK$n"$'\n'
	zpty -r -m z rest "*MARK$n*" || { print -u2 "no prompt after: $line"; exit 2; }
	hits=()
	# One word a line, the first of them after the echo of the line.
	for l in ${(f)out}; do
		[[ $l == *ZHIT:* ]] || continue
		l=${l##*ZHIT:}
		hits+=(${l%%$'\r'*})
	done
	print -r -- "$line"$'\t'"${(j: :)hits}"
done
zpty -d z
