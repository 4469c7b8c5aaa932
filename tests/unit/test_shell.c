/*
 * test_shell.c - unit tests for the shell-snippet reader (src/io/shell.c).
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "io/shell.h"

#define NCMD	8

/*
 * One table case. words: the words of a command joined with '|'. env: the
 * environment as NAME=value joined with ';'. kind and argstart as in
 * struct sh_cmd.
 */
struct want_cmd {
	enum sh_kind	 kind;
	size_t		 argstart;
	const char	*words;
	const char	*env;
};

struct tcase {
	const char	*name;
	const char	*in;
	size_t		 ncmds;
	struct want_cmd	 cmd[NCMD];
};

#define SRV	SH_SERVER
#define RTR	SH_ROUTER
#define OTH	SH_OTHER

static const struct tcase cases[] = {
	/* Basics. */
	{ "empty", "", 0, { { 0 } } },
	{ "blank and comments", "  \n# hi\n\t# there\n\n", 0, { { 0 } } },
	{ "simple server", "python -m sglang.launch_server --port 1", 1, {
	    { SRV, 3, "python|-m|sglang.launch_server|--port|1", "" } } },
	{ "python3", "python3 -m sglang.launch_server --tp 2", 1, {
	    { SRV, 3, "python3|-m|sglang.launch_server|--tp|2", "" } } },
	{ "python3.11 path", "/opt/venv/bin/python3.11 -m sglang.launch_server",
	    1, { { SRV, 3, "/opt/venv/bin/python3.11|-m|sglang.launch_server",
	    "" } } },
	{ "python options", "python -u -W ignore -m sglang.launch_server --a",
	    1, { { SRV, 6, "python|-u|-W|ignore|-m|sglang.launch_server|--a",
	    "" } } },
	{ "python -mMOD", "python -msglang.launch_server --a", 1, {
	    { SRV, 2, "python|-msglang.launch_server|--a", "" } } },
	{ "python other module", "python -m sglang.bench_serving --a", 1, {
	    { OTH, 0, "python|-m|sglang.bench_serving|--a", "" } } },
	{ "python -c", "python -c 'import sglang' -m sglang.launch_server", 1, {
	    { OTH, 0, "python|-c|import sglang|-m|sglang.launch_server", "" } } },
	{ "python script", "python launch.py", 1, {
	    { OTH, 0, "python|launch.py", "" } } },
	{ "uv run", "uv run python -m sglang.launch_server --x", 1, {
	    { SRV, 5, "uv|run|python|-m|sglang.launch_server|--x", "" } } },
	{ "uv run opts", "uv run --with sglang --no-sync -m sglang.launch_server "
	    "--x", 1, { { SRV, 7, "uv|run|--with|sglang|--no-sync|-m|"
	    "sglang.launch_server|--x", "" } } },
	{ "uv run long option", "uv run --xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx --module=sglang.launch_server "
	    "--x", 1, { { SRV, 4, "uv|run|--xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx|"
	    "--module=sglang.launch_server|--x", "" } } },
	{ "uv run option with argument", "uv run --python 3.12 "
	    "--with-editable=. -m sglang.launch_server", 1, { { SRV, 7,
	    "uv|run|--python|3.12|--with-editable=.|-m|sglang.launch_server",
	    "" } } },
	{ "uv run option not in the list", "uv run --pyth 3.12 -m "
	    "sglang.launch_server", 1, { { OTH, 0,
	    "uv|run|--pyth|3.12|-m|sglang.launch_server", "" } } },
	{ "sglang serve", "sglang serve --model-path m", 1, {
	    { SRV, 2, "sglang|serve|--model-path|m", "" } } },
	{ "sglang other", "sglang version", 1, {
	    { OTH, 0, "sglang|version", "" } } },
	{ "launch_server exe", "sglang.launch_server --port 3", 1, {
	    { SRV, 1, "sglang.launch_server|--port|3", "" } } },
	{ "router module", "python3 -m sglang_router.launch_router --pd", 1, {
	    { RTR, 3, "python3|-m|sglang_router.launch_router|--pd", "" } } },
	{ "sgl-router", "sgl-router --pd-disaggregation", 1, {
	    { RTR, 1, "sgl-router|--pd-disaggregation", "" } } },
	{ "sglang-router", "/usr/bin/sglang-router --port 8000", 1, {
	    { RTR, 1, "/usr/bin/sglang-router|--port|8000", "" } } },

	/* Wrappers. */
	{ "nohup", "nohup python -m sglang.launch_server --a > log 2>&1 &", 1, {
	    { SRV, 4, "nohup|python|-m|sglang.launch_server|--a", "" } } },
	{ "exec", "exec python3 -m sglang.launch_server", 1, {
	    { SRV, 4, "exec|python3|-m|sglang.launch_server", "" } } },
	{ "time", "time python -m sglang.launch_server", 1, {
	    { SRV, 4, "time|python|-m|sglang.launch_server", "" } } },
	{ "stacked wrappers", "nohup numactl --cpunodebind=0 -m 0 taskset -c "
	    "0-7 python -m sglang.launch_server", 1, {
	    { SRV, 11, "nohup|numactl|--cpunodebind=0|-m|0|taskset|-c|0-7|"
	    "python|-m|sglang.launch_server", "" } } },
	{ "wrapper script", "/opt/m/run-with-new-libstdc.sh python3 -m "
	    "sglang.launch_server --a", 1, {
	    { SRV, 4, "/opt/m/run-with-new-libstdc.sh|python3|-m|"
	    "sglang.launch_server|--a", "" } } },
	{ "echo is no wrapper", "echo python3 -m sglang.launch_server", 1, {
	    { OTH, 0, "echo|python3|-m|sglang.launch_server", "" } } },
	{ "a script's argument", "./run.sh --tp 2 python3 -m sglang.launch_server",
	    1, { { OTH, 0, "./run.sh|--tp|2|python3|-m|sglang.launch_server",
	    "" } } },
	{ "then/do keywords", "if true; then python -m sglang.launch_server; fi",
	    3, { { OTH, 0, "if|true", "" },
	    { SRV, 4, "then|python|-m|sglang.launch_server", "" },
	    { OTH, 0, "fi", "" } } },

	/* Separators. */
	{ "separators", "a; b && c || d | e & f\ng", 7, {
	    { OTH, 0, "a", "" }, { OTH, 0, "b", "" }, { OTH, 0, "c", "" },
	    { OTH, 0, "d", "" }, { OTH, 0, "e", "" }, { OTH, 0, "f", "" },
	    { OTH, 0, "g", "" } } },
	{ "pipeline tee", "python -m sglang.launch_server --a 2>&1 | tee log",
	    2, { { SRV, 3, "python|-m|sglang.launch_server|--a", "" },
	    { OTH, 0, "tee|log", "" } } },
	{ "subshell", "(cd /x && python -m sglang.launch_server)", 2, {
	    { OTH, 0, "cd|/x", "" },
	    { SRV, 3, "python|-m|sglang.launch_server", "" } } },

	/* Redirections. */
	{ "redirections", "cmd a > f1 b 2>&1 c >> f2 < f3 &> f4 d 2>/dev/null e"
	    " >|f5 3<>f6 &>>f7 <<<str >&2", 1, {
	    { OTH, 0, "cmd|a|b|c|d|e", "" } } },
	{ "redirect first", ">log python -m sglang.launch_server", 1, {
	    { SRV, 3, "python|-m|sglang.launch_server", "" } } },
	{ "digits not fd", "echo 30000 2", 1, {
	    { OTH, 0, "echo|30000|2", "" } } },

	/* Quoting. */
	{ "single quotes", "echo 'a b' 'it''s' '$X' '\\'", 1, {
	    { OTH, 0, "echo|a b|its|$X|\\", "" } } },
	{ "double quotes", "echo \"a b\" \"q\\\"q\" \"b\\\\s\" \"d\\$X\" "
	    "\"t\\`\" \"k\\n\"", 1, {
	    { OTH, 0, "echo|a b|q\"q|b\\s|d$X|t`|k\\n", "" } } },
	{ "backslash outside", "echo a\\ b \\$X \\\\ \\'", 1, {
	    { OTH, 0, "echo|a b|$X|\\|'", "" } } },
	{ "mixed quoting", "echo --x=\"a\"'b'c\"\"", 1, {
	    { OTH, 0, "echo|--x=abc", "" } } },
	{ "empty quotes", "echo '' \"\" x", 1, { { OTH, 0, "echo|||x", "" } } },
	{ "comment mid-word", "echo a#b # c d", 1, {
	    { OTH, 0, "echo|a#b", "" } } },
	{ "comment after op", "echo a;# c\necho b", 2, {
	    { OTH, 0, "echo|a", "" }, { OTH, 0, "echo|b", "" } } },
	{ "ansi-c", "echo $'a\\tb\\n' $'\\x41\\101'", 1, {
	    { OTH, 0, "echo|a\tb\n|AA", "" } } },
	{ "continuation", "python -m sglang.launch_server \\\n  --port 1 \\\n"
	    "  --tp 2", 1, { { SRV, 3,
	    "python|-m|sglang.launch_server|--port|1|--tp|2", "" } } },
	{ "continuation in word", "echo ab\\\ncd", 1, {
	    { OTH, 0, "echo|abcd", "" } } },
	{ "continuation in dq", "echo \"ab\\\ncd\"", 1, {
	    { OTH, 0, "echo|abcd", "" } } },
	{ "newline in quotes", "echo 'a\nb' \"c\nd\"", 1, {
	    { OTH, 0, "echo|a\nb|c\nd", "" } } },

	/* Variables and environment. */
	{ "export", "export A=1\npython -m sglang.launch_server", 2, {
	    { OTH, 0, "export|A=1", "A=1" },
	    { SRV, 3, "python|-m|sglang.launch_server", "A=1" } } },
	{ "export several", "export A=1 B=\"x y\"\nx", 2, {
	    { OTH, 0, "export|A=1|B=x y", "A=1;B=x y" },
	    { OTH, 0, "x", "A=1;B=x y" } } },
	{ "export existing", "A=1\nexport A\nexport NOPE\nx", 3, {
	    { OTH, 0, "export|A", "A=1" },
	    { OTH, 0, "export|NOPE", "A=1" },
	    { OTH, 0, "x", "A=1" } } },
	{ "assignment line", "A=1 B=2\nx", 1, {
	    { OTH, 0, "x", "A=1;B=2" } } },
	{ "later wins", "A=1\nB=2\nA=3\nx", 1, {
	    { OTH, 0, "x", "B=2;A=3" } } },
	{ "prefix scope", "A=1 x\ny", 2, {
	    { OTH, 0, "x", "A=1" }, { OTH, 0, "y", "" } } },
	{ "prefix overrides", "export A=1 B=2\nA=9 C=3 x\ny", 3, {
	    { OTH, 0, "export|A=1|B=2", "A=1;B=2" },
	    { OTH, 0, "x", "B=2;A=9;C=3" },
	    { OTH, 0, "y", "A=1;B=2" } } },
	{ "prefix dup", "A=1 A=2 x", 1, { { OTH, 0, "x", "A=2" } } },
	{ "cuda prefix", "CUDA_VISIBLE_DEVICES=0,1 python -m "
	    "sglang.launch_server --tp 2", 1, {
	    { SRV, 3, "python|-m|sglang.launch_server|--tp|2",
	    "CUDA_VISIBLE_DEVICES=0,1" } } },
	{ "env wrapper", "env A=1 B=2 python -m sglang.launch_server --x", 1, {
	    { SRV, 6, "env|A=1|B=2|python|-m|sglang.launch_server|--x",
	    "A=1;B=2" } } },
	{ "env -u and -i", "export A=1 B=2\nenv -u A python x\n"
	    "C=3 env -i D=4 y", 3, {
	    { OTH, 0, "export|A=1|B=2", "A=1;B=2" },
	    { OTH, 0, "env|-u|A|python|x", "B=2" },
	    { OTH, 0, "env|-i|D=4|y", "D=4" } } },
	{ "nohup env prefix", "A=1 nohup env B=2 python -m sglang.launch_server",
	    1, { { SRV, 6, "nohup|env|B=2|python|-m|sglang.launch_server",
	    "A=1;B=2" } } },
	{ "expansion", "P=30000\nH=host\necho $P ${H} \"$H:$P\" x${P}y", 1, {
	    { OTH, 0, "echo|30000|host|host:30000|x30000y", "P=30000;H=host" } } },
	{ "expansion defaults", "A=a\nE=\necho ${A:-x} ${U:-d} ${E:-e} ${E-f}"
	    " ${U-g} ${A:+alt} ${U:+alt} \"${U:-x y}\" ${U:-\"p q\"}", 1, {
	    { OTH, 0, "echo|a|d|e|g|alt|x y|p q", "A=a;E=" } } },
	{ "nested default", "B=b\necho ${U:-${B}} ${U:-${V:-w}}", 1, {
	    { OTH, 0, "echo|b|w", "B=b" } } },
	{ "field splitting", "ARGS=\"--tp 2  --dp 2\"\npython -m "
	    "sglang.launch_server $ARGS \"$ARGS\"", 1, {
	    { SRV, 3, "python|-m|sglang.launch_server|--tp|2|--dp|2|"
	    "--tp 2  --dp 2", "ARGS=--tp 2  --dp 2" } } },
	{ "empty expansion", "E=\necho $E \"$E\" ${U:-} x", 1, {
	    { OTH, 0, "echo||x", "E=" } } },
	{ "assignment sees earlier", "A=1 B=$A\nx", 1, {
	    { OTH, 0, "x", "A=1;B=1" } } },
	{ "prefix sees earlier prefix", "A=1 B=$A x $A", 1, {
	    { OTH, 0, "x|$A", "A=1;B=1" } } },
	{ "export expands first", "export A=1 B=$A\nx", 2, {
	    { OTH, 0, "export|A=1|B=$A", "A=1;B=$A" },
	    { OTH, 0, "x", "A=1;B=$A" } } },
	{ "export no split", "V=\"a b\"\nexport W=$V\nx", 2, {
	    { OTH, 0, "export|W=a b", "V=a b;W=a b" },
	    { OTH, 0, "x", "V=a b;W=a b" } } },
	{ "append", "A=x\nA+=y\nexport B=1\nexport B+=2\nz", 3, {
	    { OTH, 0, "export|B=1", "A=xy;B=1" },
	    { OTH, 0, "export|B+=2", "A=xy;B=12" },
	    { OTH, 0, "z", "A=xy;B=12" } } },
	{ "unset", "A=1 B=2\nunset A\nx", 2, {
	    { OTH, 0, "unset|A", "B=2" }, { OTH, 0, "x", "B=2" } } },
	{ "no process env", "echo $HOME", 1, {
	    { OTH, 0, "echo|$HOME", "" } } },
	{ "cmdsub kept", "H=$(hostname -I)\necho $H \"$(date)\" `id`", 1, {
	    { OTH, 0, "echo|$(hostname -I)|$(date)|`id`",
	    "H=$(hostname -I)" } } },
	{ "special params", "echo $1 $@ \"$*\" $? $$ $", 1, {
	    { OTH, 0, "echo|$1|$@|$*|$?|$$|$", "" } } },
	{ "length, unsupported braces", "A=abc\necho ${#A} ${A:1} ${A/b/c}", 1, {
	    { OTH, 0, "echo|3|${A:1}|${A/b/c}", "A=abc" } } },
	{ "array assignment", "a=(1 2 3)\necho x", 1, {
	    { OTH, 0, "echo|x", "a=1\x1f" "2\x1f" "3\x1f" } } },
	{ "array expansion", "A=(x \"y z\")\nA+=(w)\necho \"${A[@]}\" ${#A[@]} ${A[2]}", 1, {
	    { OTH, 0, "echo|x|y z|w|3|w", "A=x\x1f" "y z\x1f" "w\x1f" } } },

	/* Here-documents. */
	{ "heredoc", "cat > c.yaml <<EOF\npython -m sglang.launch_server\n"
	    "EOF\npython -m sglang_router.launch_router", 2, {
	    { OTH, 0, "cat", "" },
	    { RTR, 3, "python|-m|sglang_router.launch_router", "" } } },
	{ "heredoc quoted", "cat <<'EOF' | tee x\n$(rm -rf /) 'unbalanced\n"
	    "EOF\necho done", 3, {
	    { OTH, 0, "cat", "" }, { OTH, 0, "tee|x", "" },
	    { OTH, 0, "echo|done", "" } } },
	{ "heredoc dash", "cat <<-\"END\"\n\tx\n\tEND\necho y", 2, {
	    { OTH, 0, "cat", "" }, { OTH, 0, "echo|y", "" } } },
	{ "two heredocs", "cat <<A <<B\na\nA\nb\nB\necho z", 2, {
	    { OTH, 0, "cat", "" }, { OTH, 0, "echo|z", "" } } },
	{ "heredoc unterminated", "cat <<EOF\nabc\n", 1, {
	    { OTH, 0, "cat", "" } } },
	{ "herestring", "cat <<< \"x y\" z", 1, { { OTH, 0, "cat|z", "" } } },

	/* Line endings and odd shell. */
	{ "crlf", "export A=1\r\npython -m sglang.launch_server \\\r\n"
	    "  --x $A\r\n", 2, {
	    { OTH, 0, "export|A=1", "A=1" },
	    { SRV, 3, "python|-m|sglang.launch_server|--x|1", "A=1" } } },
	{ "function", "f() { python -m sglang.launch_server \"$@\"; }\nf", 4, {
	    { OTH, 0, "f", "" },
	    { SRV, 4, "{|python|-m|sglang.launch_server|$@", "" },
	    { OTH, 0, "}", "" }, { OTH, 0, "f", "" } } },
	{ "for loop", "for i in 0 1; do python -m sglang.launch_server "
	    "--port $((30000 + i)) & done", 3, {
	    { OTH, 0, "for|i|in|0|1", "" },
	    { SRV, 4, "do|python|-m|sglang.launch_server|--port|"
	    "$((30000 + i))", "" },
	    { OTH, 0, "done", "" } } },
	{ "case", "case $x in a) echo a;; *) echo b;; esac", 5, {
	    { OTH, 0, "case|$x|in|a", "" }, { OTH, 0, "echo|a", "" },
	    { OTH, 0, "*", "" }, { OTH, 0, "echo|b", "" },
	    { OTH, 0, "esac", "" } } },
	{ "process substitution", "diff <(ls a) <(ls b) > >(tee x)", 1, {
	    { OTH, 0, "diff|<(ls a)|<(ls b)", "" } } },
};

/* unclosed_heredoc: the line of the first here-document with no end. */
static void
test_unclosed_heredoc(void **state)
{
	static const struct {
		const char	*text;
		int		 want;
	} t[] = {
		{ "cat <<EOF\nabc\n", 1 },
		{ "cat <<EOF\nabc\nEOF\n", 0 },
		{ "echo\ncat <<A <<B\na\nA\nb\n", 2 },
		{ "cat <<-X\n\tx\n\tX\necho\ncat <<Y\n", 5 },
		{ "echo '<<EOF'\n", 0 },
	};
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		struct sh_script	sc;
		char			err[256];

		assert_int_equal(sh_parse(t[i].text, strlen(t[i].text), &sc,
		    err, sizeof err), 0);
		if (sc.unclosed_heredoc != t[i].want)
			fail_msg("%s: unclosed_heredoc %d, want %d", t[i].text,
			    sc.unclosed_heredoc, t[i].want);
		sh_script_free(&sc);
	}
}

/* Join words with '|' and env with ';' for comparison. */
static char *
join_words(const struct sh_cmd *c)
{
	size_t	 n = 1, i;
	char	*r;

	for (i = 0; i < c->nwords; i++)
		n += strlen(c->words[i].text) + 1;
	r = calloc(1, n);
	for (i = 0; i < c->nwords; i++) {
		if (i != 0)
			strcat(r, "|");
		strcat(r, c->words[i].text);
	}
	return (r);
}

static char *
join_env(const struct sh_cmd *c)
{
	size_t	 n = 1, i;
	char	*r;

	for (i = 0; i < c->nenv; i++)
		n += strlen(c->env[i].name) + strlen(c->env[i].value) + 2;
	r = calloc(1, n);
	for (i = 0; i < c->nenv; i++) {
		if (i != 0)
			strcat(r, ";");
		strcat(r, c->env[i].name);
		strcat(r, "=");
		strcat(r, c->env[i].value);
	}
	return (r);
}

static int
check_case(const struct tcase *t)
{
	struct sh_script	 s;
	char			 err[256], *w, *e;
	size_t			 i;
	int			 bad = 0;

	if (sh_parse(t->in, strlen(t->in), &s, err, sizeof(err)) != 0) {
		print_error("%s: parse failed: %s\n", t->name, err);
		return (1);
	}
	if (s.ncmds != t->ncmds) {
		print_error("%s: %zu commands, want %zu\n", t->name, s.ncmds,
		    t->ncmds);
		for (i = 0; i < s.ncmds; i++) {
			w = join_words(&s.cmds[i]);
			print_error("  [%zu] %s\n", i, w);
			free(w);
		}
		sh_script_free(&s);
		return (1);
	}
	for (i = 0; i < s.ncmds && i < NCMD; i++) {
		w = join_words(&s.cmds[i]);
		e = join_env(&s.cmds[i]);
		if (strcmp(w, t->cmd[i].words) != 0) {
			print_error("%s: cmd %zu words '%s', want '%s'\n",
			    t->name, i, w, t->cmd[i].words);
			bad = 1;
		}
		if (strcmp(e, t->cmd[i].env) != 0) {
			print_error("%s: cmd %zu env '%s', want '%s'\n",
			    t->name, i, e, t->cmd[i].env);
			bad = 1;
		}
		if (s.cmds[i].kind != t->cmd[i].kind ||
		    s.cmds[i].argstart != t->cmd[i].argstart) {
			print_error("%s: cmd %zu kind %d argstart %zu, want "
			    "%d %zu\n", t->name, i, s.cmds[i].kind,
			    s.cmds[i].argstart, t->cmd[i].kind,
			    t->cmd[i].argstart);
			bad = 1;
		}
		free(w);
		free(e);
	}
	sh_script_free(&s);
	return (bad);
}

static void
test_table(void **state)
{
	size_t	i;
	int	bad = 0;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		bad += check_case(&cases[i]);
	assert_int_equal(bad, 0);
}

/* Parse text that must succeed. */
static void
parse_ok(const char *in, struct sh_script *s)
{
	char	err[256];
	int	r = sh_parse(in, strlen(in), s, err, sizeof(err));

	if (r != 0)
		print_error("unexpected error: %s\n", err);
	assert_int_equal(r, 0);
}

static const struct sh_env *
env_get(const struct sh_cmd *c, const char *name)
{
	size_t	i;

	for (i = 0; i < c->nenv; i++) {
		if (strcmp(c->env[i].name, name) == 0)
			return (&c->env[i]);
	}
	return (NULL);
}

/* The documented Mooncake single-node example, verbatim. */
static const char doc_llama[] =
    "python -m sglang.launch_server \\\n"
    "  --model-path meta-llama/Llama-3.1-8B-Instruct \\\n"
    "  --disaggregation-mode prefill \\\n"
    "  --port 30000 \\\n"
    "  --disaggregation-ib-device mlx5_roce0\n"
    "python -m sglang.launch_server \\\n"
    "  --model-path meta-llama/Llama-3.1-8B-Instruct \\\n"
    "  --disaggregation-mode decode \\\n"
    "  --port 30001 \\\n"
    "  --base-gpu-id 1 \\\n"
    "  --disaggregation-ib-device mlx5_roce0\n"
    "python -m sglang_router.launch_router --pd-disaggregation --prefill "
    "http://127.0.0.1:30000 --decode http://127.0.0.1:30001 --host 0.0.0.0 "
    "--port 8000\n";

static void
test_launch_example(void **state)
{
	struct sh_script	 s;
	const struct sh_cmd	*c;

	(void)state;
	parse_ok(doc_llama, &s);
	assert_int_equal(s.ncmds, 3);

	c = &s.cmds[0];
	assert_int_equal(c->kind, SH_SERVER);
	assert_int_equal(c->argstart, 3);
	assert_int_equal(c->nwords, 11);
	assert_int_equal(c->line, 1);
	assert_int_equal(c->endline, 5);
	assert_string_equal(c->words[3].text, "--model-path");
	assert_int_equal(c->words[3].line, 2);
	assert_int_equal(c->words[3].col, 3);
	assert_string_equal(c->words[10].text, "mlx5_roce0");
	assert_int_equal(c->words[10].line, 5);
	assert_int_equal(c->words[10].col, 30);

	c = &s.cmds[1];
	assert_int_equal(c->kind, SH_SERVER);
	assert_int_equal(c->line, 6);
	assert_int_equal(c->endline, 11);
	assert_string_equal(c->words[8].text, "30001");

	c = &s.cmds[2];
	assert_int_equal(c->kind, SH_ROUTER);
	assert_int_equal(c->argstart, 3);
	assert_int_equal(c->nwords, 12);
	assert_int_equal(c->line, 12);
	assert_int_equal(c->endline, 12);
	assert_string_equal(c->words[5].text, "http://127.0.0.1:30000");
	sh_script_free(&s);
}

/* The DeepSeek multi-node prefill, with the variables set before it. */
static void
test_launch_example_vars(void **state)
{
	static const char in[] =
	    "device_name=mlx5_0\n"
	    "export local_ip=10.0.0.2 prefill_master_ip=10.0.0.1\n"
	    "# prefill 0\n"
	    "python -m sglang.launch_server \\\n"
	    "  --model-path deepseek-ai/DeepSeek-V3-0324 \\\n"
	    "  --disaggregation-ib-device ${device_name} \\\n"
	    "  --disaggregation-mode prefill \\\n"
	    "  --host ${local_ip} \\\n"
	    "  --port 30000 \\\n"
	    "  --trust-remote-code \\\n"
	    "  --dist-init-addr ${prefill_master_ip}:5000 \\\n"
	    "  --nnodes 2 \\\n"
	    "  --node-rank 0 \\\n"
	    "  --tp-size 16 \\\n"
	    "  --dp-size 8 \\\n"
	    "  --enable-dp-attention \\\n"
	    "  --moe-a2a-backend deepep \\\n"
	    "  --mem-fraction-static 0.8\n";
	struct sh_script	 s;
	const struct sh_cmd	*c;
	const struct sh_env	*e;
	size_t			 i;

	(void)state;
	parse_ok(in, &s);
	assert_int_equal(s.ncmds, 2);
	c = &s.cmds[1];
	assert_int_equal(c->kind, SH_SERVER);
	assert_int_equal(c->line, 4);
	assert_int_equal(c->endline, 18);
	assert_string_equal(c->words[6].text, "mlx5_0");
	assert_string_equal(c->words[10].text, "10.0.0.2");
	assert_string_equal(c->words[15].text, "10.0.0.1:5000");
	assert_int_equal(c->words[15].line, 11);
	assert_int_equal(c->words[15].col, 20);
	for (i = 0; i < c->nwords; i++)
		assert_false(c->words[i].unresolved);

	assert_int_equal(c->nenv, 3);
	e = env_get(c, "device_name");
	assert_non_null(e);
	assert_false(e->exported);
	assert_int_equal(e->line, 1);
	assert_int_equal(e->col, 1);
	e = env_get(c, "prefill_master_ip");
	assert_non_null(e);
	assert_true(e->exported);
	assert_int_equal(e->line, 2);
	assert_int_equal(e->col, 26);
	sh_script_free(&s);
}

static void
test_positions(void **state)
{
	static const char in[] =
	    "export A=1\n"
	    "\n"
	    "  B=2 CUDA_VISIBLE_DEVICES=0 \\\n"
	    "\tpython -m sglang.launch_server 'x\n"
	    "y' z\n";
	struct sh_script	 s;
	const struct sh_cmd	*c;
	const struct sh_env	*e;

	(void)state;
	parse_ok(in, &s);
	assert_int_equal(s.ncmds, 2);
	c = &s.cmds[1];
	assert_int_equal(c->line, 3);
	assert_int_equal(c->endline, 5);
	assert_int_equal(c->words[0].line, 4);
	assert_int_equal(c->words[0].col, 2);
	assert_int_equal(c->words[3].line, 4);
	assert_int_equal(c->words[3].col, 33);
	assert_string_equal(c->words[3].text, "x\ny");
	assert_int_equal(c->words[4].line, 5);
	assert_int_equal(c->words[4].col, 4);

	e = env_get(c, "A");
	assert_int_equal(e->line, 1);
	assert_int_equal(e->col, 8);
	assert_true(e->exported);
	e = env_get(c, "B");
	assert_int_equal(e->line, 3);
	assert_int_equal(e->col, 3);
	assert_true(e->exported);
	e = env_get(c, "CUDA_VISIBLE_DEVICES");
	assert_int_equal(e->line, 3);
	assert_int_equal(e->col, 7);
	assert_string_equal(e->value, "0");
	sh_script_free(&s);
}

static void
test_unresolved(void **state)
{
	static const char in[] =
	    "IP=$(hostname -i)\n"
	    "K=known\n"
	    "python -m sglang.launch_server --host $IP --a $K --b \"$NOPE\" "
	    "--c ${NOPE:-dflt} --d `x` --e \"${K}\"\n";
	struct sh_script	 s;
	const struct sh_cmd	*c;

	(void)state;
	parse_ok(in, &s);
	assert_int_equal(s.ncmds, 1);
	c = &s.cmds[0];
	assert_int_equal(c->nwords, 15);
	assert_string_equal(c->words[4].text, "$(hostname -i)");
	assert_true(c->words[4].unresolved);
	assert_string_equal(c->words[6].text, "known");
	assert_false(c->words[6].unresolved);
	assert_string_equal(c->words[8].text, "$NOPE");
	assert_true(c->words[8].unresolved);
	assert_string_equal(c->words[10].text, "dflt");
	assert_false(c->words[10].unresolved);
	assert_string_equal(c->words[12].text, "`x`");
	assert_true(c->words[12].unresolved);
	assert_true(env_get(c, "IP")->unresolved);
	assert_false(env_get(c, "K")->unresolved);
	sh_script_free(&s);
}

/* Commands with the same environment may share it; values stay right. */
static void
test_env_sharing(void **state)
{
	static const char in[] =
	    "export A=1\nx\ny\nA=2\nz\nB=3 w\nv\n";
	struct sh_script	 s;

	(void)state;
	parse_ok(in, &s);
	assert_int_equal(s.ncmds, 6);
	assert_string_equal(env_get(&s.cmds[1], "A")->value, "1");
	assert_string_equal(env_get(&s.cmds[2], "A")->value, "1");
	assert_string_equal(env_get(&s.cmds[3], "A")->value, "2");
	assert_true(env_get(&s.cmds[3], "A")->exported);
	assert_int_equal(s.cmds[4].nenv, 2);
	assert_string_equal(env_get(&s.cmds[4], "B")->value, "3");
	assert_int_equal(s.cmds[5].nenv, 1);
	assert_null(env_get(&s.cmds[5], "B"));
	sh_script_free(&s);
}

struct ecase {
	const char	*in;
	const char	*err;
};

static const struct ecase ecases[] = {
	{ "echo 'abc", "1:6: unterminated single quote" },
	{ "echo ok\n  x \"abc\n\n", "2:5: unterminated double quote" },
	{ "echo \"it's", "1:6: unterminated double quote" },
	{ "echo x \\", "1:8: backslash at end of input" },
	{ "a\n\\", "2:1: backslash at end of input" },
	{ "echo $(foo", "1:6: unterminated command substitution" },
	{ "echo \"$(foo\"", "1:12: unterminated double quote" },
	{ "echo `foo", "1:6: unterminated backquote" },
	{ "echo ${A:-x", "1:6: unterminated parameter expansion" },
	{ "echo $'abc", "1:6: unterminated single quote" },
	{ "a=(1 2", "1:3: unterminated parenthesis" },
	{ "diff <(ls", "1:6: unterminated process substitution" },
	{ "cat <<'EOF\nx\n", "1:7: unterminated single quote" },
	{ "x\r\n  'y\r\n", "2:3: unterminated single quote" },
};

static void
test_errors(void **state)
{
	struct sh_script	 s;
	char			 err[256];
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof(ecases) / sizeof(ecases[0]); i++) {
		memset(err, 'x', sizeof(err));
		assert_int_equal(sh_parse(ecases[i].in, strlen(ecases[i].in),
		    &s, err, sizeof(err)), -1);
		assert_string_equal(err, ecases[i].err);
		assert_null(s.cmds);
		assert_int_equal(s.ncmds, 0);
		sh_script_free(&s);
	}
	/* A tiny or missing error buffer is fine. */
	assert_int_equal(sh_parse("'", 1, &s, NULL, 0), -1);
	assert_int_equal(sh_parse("'", 1, &s, err, 3), -1);
	assert_string_equal(err, "1:");
}

static void
test_nul(void **state)
{
	static const char in[] = "echo a\nec\0ho";
	struct sh_script	 s;
	char			 err[256];

	(void)state;
	assert_int_equal(sh_parse(in, sizeof(in) - 1, &s, err, sizeof(err)),
	    -1);
	assert_string_equal(err, "2:3: NUL byte in input");
	assert_int_equal(sh_parse("\0", 1, &s, err, sizeof(err)), -1);
	assert_string_equal(err, "1:1: NUL byte in input");
}

static void
test_crlf(void **state)
{
	static const char in[] =
	    "export A=1\r\n"
	    "python -m sglang.launch_server \\\r\n"
	    "  --x \"$A\" 'q\r\nr' \"d\r\ne\" $'a\r\nb'\r\n"
	    "cat <<EOF\r\n"
	    "data\r\n"
	    "EOF\r\n"
	    "echo end\r";
	struct sh_script	 s;
	const struct sh_cmd	*c;

	(void)state;
	parse_ok(in, &s);
	assert_int_equal(s.ncmds, 4);
	c = &s.cmds[1];
	assert_int_equal(c->kind, SH_SERVER);
	assert_int_equal(c->nwords, 8);
	assert_string_equal(c->words[4].text, "1");
	/* Unquoted, CR LF ends a line; quoted, the CR is part of the word. */
	assert_string_equal(c->words[5].text, "q\r\nr");
	assert_string_equal(c->words[6].text, "d\r\ne");
	assert_string_equal(c->words[7].text, "a\r\nb");
	assert_int_equal(c->words[3].line, 3);
	assert_int_equal(c->words[3].col, 3);
	assert_string_equal(s.cmds[3].words[1].text, "end");
	assert_int_equal(s.cmds[3].line, 10);
	sh_script_free(&s);
}

/* Unbalanced and hostile input: no crash, a result or a located error. */
static void
test_garbage(void **state)
{
	static const char *const in[] = {
	    ")))(((", ";;;&&&|||", "$", "${", "${}", "$(", "`", "\"", "'",
	    "<<", "<<<", "2>", ">&", "&", "|", "{ }", "f() {", "$((1+",
	    "${A:-${B:-${C:-", "\"${A:-'}\"", "${A:-'x}'}", "x=( a ' ) ' )",
	    "echo \\\n", "<(", "$'\\x'", "$'\\", "cat <<", "cat << ;",
	    "a=\nb+=c\n", "export", "env -u", "env -S 'x y'", "unset -f a",
	    "python -m", "uv run", "uv run -m", "sglang", "nohup", "exec",
	    "timeout", "\xff\xfe\x80 \xc3\x28", "#!", "\r", "\r\r\n\n\r",
	};
	struct sh_script	 s;
	char			 err[256];
	size_t			 i;
	int			 a, b;

	(void)state;
	for (i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		if (sh_parse(in[i], strlen(in[i]), &s, err, sizeof(err)) != 0)
			assert_int_equal(sscanf(err, "%d:%d: ", &a, &b), 2);
		sh_script_free(&s);
	}
}

/* Pseudo-random input over a shell-heavy alphabet. */
static void
test_random(void **state)
{
	static const char	 alpha[] = "ab =$'\"\\`(){}<>|&;#\n\t-:+x0EOF";
	struct sh_script	 s;
	char			 buf[64], err[256];
	unsigned long		 x = 12345;
	size_t			 i, n, k;
	int			 a, b;

	(void)state;
	for (i = 0; i < 20000; i++) {
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		n = (x >> 33) % (sizeof(buf) - 1);
		for (k = 0; k < n; k++) {
			x = x * 6364136223846793005UL + 1442695040888963407UL;
			buf[k] = alpha[(x >> 33) % (sizeof(alpha) - 1)];
		}
		buf[n] = '\0';
		if (sh_parse(buf, n, &s, err, sizeof(err)) != 0)
			assert_int_equal(sscanf(err, "%d:%d: ", &a, &b), 2);
		sh_script_free(&s);
	}
}

static int
under_valgrind(void)
{
	const char	*pre = getenv("LD_PRELOAD");

	return (pre != NULL && strstr(pre, "vgpreload") != NULL);
}

/* Built with AddressSanitizer (gcc defines the macro, clang the feature). */
#if defined(__SANITIZE_ADDRESS__)
#define SHELL_ASAN	1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SHELL_ASAN	1
#endif
#endif

/*
 * Big inputs, smaller under valgrind and the sanitizers (which run them
 * 10 to 50 times slower). They are parsed whole and checked; how the
 * readers' work grows with the input is measured by tests/scale (in
 * instructions), not timed here.
 */
static size_t
big(size_t n)
{
	size_t	div = under_valgrind() ? 32 : 1;

#if defined(SHELL_ASAN)
	div = 8;
#endif
	return (n / div);
}

/* Parse a big input: its commands and the first one's words. */
static void
big_input(char *buf, size_t n, size_t ncmds, size_t nwords)
{
	struct sh_script	 s;
	char			 err[256];

	assert_int_equal(sh_parse(buf, n, &s, err, sizeof(err)), 0);
	assert_int_equal(s.ncmds, ncmds);
	if (ncmds != 0)
		assert_int_equal(s.cmds[0].nwords, nwords);
	sh_script_free(&s);
}

static void
test_big_line(void **state)
{
	static const char	 head[] = "python -m sglang.launch_server ";
	static const char	 arg[] = "--tp-size 2 ";
	size_t			 n = big(10 << 20), i, k, nargs;
	char			*buf = malloc(n + 1);

	(void)state;
	/* Many words on one 10 MB line. */
	memcpy(buf, head, sizeof(head) - 1);
	k = sizeof(head) - 1;
	for (nargs = 0; k + sizeof(arg) - 1 <= n; nargs++) {
		memcpy(buf + k, arg, sizeof(arg) - 1);
		k += sizeof(arg) - 1;
	}
	buf[k] = '\0';
	big_input(buf, k, 1, 3 + 2 * nargs);

	/* One 10 MB double-quoted word with expansions. */
	memcpy(buf, "A=v\necho \"", 10);
	for (k = 10, i = 0; k < n - 8; k += 4, i++)
		memcpy(buf + k, i % 100 == 0 ? "$A.." : "abcd", 4);
	memcpy(buf + k, "\"", 2);
	big_input(buf, k + 1, 1, 2);

	/* Deep nesting is matched without recursion. */
	k = 0;
	memcpy(buf, "echo ", 5);
	for (k = 5, i = 0; i < n / 10; i++, k += 2)
		memcpy(buf + k, "$(", 2);
	for (i = 0; i < n / 10; i++)
		buf[k++] = ')';
	buf[k] = '\0';
	big_input(buf, k, 1, 2);

	k = 0;
	memcpy(buf, "echo ", 5);
	for (k = 5, i = 0; i < n / 20; i++, k += 5)
		memcpy(buf + k, "${A:-", 5);
	for (i = 0; i < n / 20; i++)
		buf[k++] = '}';
	buf[k] = '\0';
	big_input(buf, k, 1, 2);
	free(buf);
}

static void
test_big_script(void **state)
{
	size_t	 n = big(16 << 20), k = 0, i, nx;
	char	*buf = malloc(n + 64);

	(void)state;
	/*
	 * Many variables and many commands: environments are shared, and
	 * each export line (a command too) extends the last one.
	 */
	for (i = 0; k < n / 2; i++)
		k += (size_t)sprintf(buf + k, "export V%zu=%zu\n", i, i);
	for (nx = 0; k < n; nx++)
		k += (size_t)sprintf(buf + k, "python -m sglang.launch_server "
		    "--port $V%zu\n", nx);
	big_input(buf, k, i + nx, 2);

	/* Assignments and commands interleaved. */
	for (i = 0, k = 0; k < n; i++)
		k += (size_t)sprintf(buf + k, "V%zu=%zu\necho $V%zu\n", i, i, i);
	big_input(buf, k, i, 2);

	/* Blow-up by doubling is refused, not attempted. */
	k = (size_t)sprintf(buf, "A=xxxxxxxxxxxxxxxx\n");
	for (i = 0; i < 64; i++)
		k += (size_t)sprintf(buf + k, "A=$A$A\n");
	{
		struct sh_script	 s;
		char			 err[256];

		assert_int_equal(sh_parse(buf, k, &s, err, sizeof(err)), -1);
		assert_non_null(strstr(err, ": expansion too large"));
	}
	free(buf);
}

static void
test_quote_plain(void **state)
{
	static const struct {
		const char	*in, *out;
	} q[] = {
		{ "", "''" },
		{ "abc", "abc" },
		{ "--model-path=/a/b-c_d.e:1,2@x%y+z", "--model-path=/a/b-c_d.e:1,2@x%y+z" },
		{ "a b", "'a b'" },
		{ "it's", "'it'\\''s'" },
		{ "'", "''\\'''" },
		{ "$HOME", "'$HOME'" },
		{ "a\nb", "'a\nb'" },
		{ "~", "'~'" },
	};
	size_t	 i;
	char	*r;

	(void)state;
	for (i = 0; i < sizeof(q) / sizeof(q[0]); i++) {
		r = sh_quote(q[i].in);
		assert_string_equal(r, q[i].out);
		free(r);
	}
}

/* What bash prints for printf %s <quoted s>. */
static char *
bash_echo(const char *quoted, size_t *len)
{
	FILE	*f;
	char	*cmd, *out;
	size_t	 n, cap = 1024;

	/* The script itself is quoted for sh -c by sh_quote too. */
	n = strlen(quoted) + 32;
	cmd = malloc(n);
	snprintf(cmd, n, "printf %%s %s", quoted);
	out = sh_quote(cmd);
	free(cmd);
	n = strlen(out) + 32;
	cmd = malloc(n);
	snprintf(cmd, n, "bash -c %s", out);
	free(out);
	f = popen(cmd, "r");
	free(cmd);
	assert_non_null(f);
	out = malloc(cap);
	*len = 0;
	while ((n = fread(out + *len, 1, cap - *len, f)) > 0) {
		*len += n;
		if (*len == cap)
			out = realloc(out, cap *= 2);
	}
	assert_int_equal(pclose(f), 0);
	return (out);
}

static void
roundtrip(const char *s)
{
	char	*q, *out;
	size_t	 n;

	q = sh_quote(s);
	out = bash_echo(q, &n);
	if (n != strlen(s) || memcmp(out, s, n) != 0)
		fail_msg("sh_quote(%s) did not round-trip", q);
	free(q);
	free(out);
}

static void
test_quote_bash(void **state)
{
	static const char *const hostile[] = {
		"plain", "a b", "  lead and trail  ", "it's", "''", "\"",
		"\"double\" 'single'", "$HOME", "${HOME}", "$(id)", "`id`",
		"a\nb\n", "back\\slash\\", "\\'", "tab\there", "!bang!",
		"*?[a]", "~root", "semi;colon&amp|pipe>x<y", "#hash",
		"-n", "--flag=va'l ue", "ünïcødé ✓", "\xff\xfe\x80",
		"%s%n", "{a,b}", "a=b", "\x1b[31mred",
	};
	char	all[256];
	size_t	i;

	(void)state;
	if (system("command -v bash >/dev/null 2>&1") != 0)
		skip();
	for (i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++)
		roundtrip(hostile[i]);
	for (i = 1; i < 256; i++)
		all[i - 1] = (char)i;
	all[255] = '\0';
	roundtrip(all);
}

/* sh_quote's output parses back to the same single word. */
static void
test_quote_parse(void **state)
{
	static const char *const w[] = {
		"a b", "it's", "$X", "`x`", "a\nb", "\\", "", "\"",
		"\xff\x01\x7f",
	};
	struct sh_script	 s;
	char			*q;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		q = sh_quote(w[i]);
		parse_ok(q, &s);
		assert_int_equal(s.ncmds, 1);
		assert_int_equal(s.cmds[0].nwords, 1);
		assert_string_equal(s.cmds[0].words[0].text, w[i]);
		assert_false(s.cmds[0].words[0].unresolved);
		sh_script_free(&s);
		free(q);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unclosed_heredoc),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_launch_example),
		cmocka_unit_test(test_launch_example_vars),
		cmocka_unit_test(test_positions),
		cmocka_unit_test(test_unresolved),
		cmocka_unit_test(test_env_sharing),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_nul),
		cmocka_unit_test(test_crlf),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_big_line),
		cmocka_unit_test(test_big_script),
		cmocka_unit_test(test_quote_plain),
		cmocka_unit_test(test_quote_bash),
		cmocka_unit_test(test_quote_parse),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
