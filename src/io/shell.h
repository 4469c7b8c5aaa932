/*
 * shell.h - read shell snippets the way an operator writes launch scripts.
 *
 * Not a shell: it splits a script into simple commands, with quoting,
 * comments, backslash-newline continuations, `export VAR=...` lines,
 * `VAR=... cmd` prefixes and plain `VAR=...` assignments, and expands
 * $VAR / ${VAR} from assignments made earlier in the same script.
 * Anything it cannot expand stays as text and is flagged.
 */
#ifndef PDWIZ_SHELL_H
#define PDWIZ_SHELL_H

#include <stdbool.h>
#include <stddef.h>

enum sh_kind {
	SH_OTHER = 0,		/* anything else: ignored by pdwiz check */
	SH_SERVER,		/* python[3] -m sglang.launch_server, sglang serve, ... */
	SH_ROUTER		/* python[3] -m sglang_router.launch_router, sgl-router, ... */
};

struct sh_word {
	char	*text;		/* after quote removal and expansion; owned by
				   the script (pooled): never free it alone */
	int	 line, col;	/* 1-based position of the word's first char */
	bool	 unresolved;	/* contained $VAR, $(...), `...` that could not be expanded */
	bool	 foreign;	/* an argument of the wrapper around SGLang
				   (dynamo.sglang --endpoint X), not SGLang's */
};

/*
 * An environment entry. Names, values and whole env arrays are owned by the
 * script (freed by sh_script_free) and may be shared between commands:
 * never free or modify them.
 */
struct sh_env {
	char	*name;		/* owned by the script */
	char	*value;		/* owned by the script */
	int	 line, col;	/* where it was assigned */
	bool	 unresolved;
	bool	 exported;	/* export or VAR=.. prefix; false: plain VAR=.. */
};

struct sh_cmd {
	enum sh_kind	 kind;
	struct sh_word	*words;		/* all words of the simple command, prefixes excluded */
	size_t		 nwords;
	size_t		 argstart;	/* index of the first SGLang/router argument in words
					   (0 for SH_OTHER) */
	struct sh_env	*env;		/* effective environment: exports so far, then VAR=.. prefixes;
					   owned by the script, may be shared with other commands */
	size_t		 nenv;
	int		 line;		/* line of the command's first word (prefixes included) */
	int		 endline;	/* last line (continuations) */
	/* Where the input says the command runs (a manifest's pods; a
	   script leaves them NULL/false). Strings owned by the script. */
	const char	*machine;	/* the pod it runs on; NULL: the script's one box */
	const char	*node;		/* the machine a document's prose names for
					   the command's block ("Node 2"), as
					   PDWIZ_NODE_HOST=Node 2 would; NULL */
	const char	*image;		/* the container image, or NULL */
	bool		 repeat;	/* another pod of a template already read
					   (a replica or a worker rank): the
					   per-server checks need not run again */
	const char	*wrapper;	/* what runs SGLang here, when it is not SGLang's own
					   entry point: "dynamo.sglang", "docker run"; or NULL */
	bool		 nohttp;	/* the wrapper opens no SGLang HTTP server, so
					   --host/--port name no listening socket */
	bool		 serve;		/* run by the sglang serve CLI: its own
					   --model-type, and a first word that
					   is no flag is the model path */
	const char	*gone;		/* an entry point removed from SGLang (the old
					   mini_lb router): what replaces it; or NULL */	int		 gpus;		/* the GPUs its container is granted (a
					   manifest's nvidia.com/gpu limit), the
					   GPUs of its machine it can use; 0:
					   not said */
};

struct sh_pool;

struct sh_script {
	struct sh_cmd	*cmds;		/* every simple command, in order */
	size_t		 ncmds;
	struct sh_pool	*pool;		/* private: env strings and arrays */
	size_t		 cmdcap;	/* private: room in cmds that
					   sh_script_move made, or 0 */
	int		 unclosed_heredoc; /* line of a here-document whose
					   delimiter never comes (bash reads
					   the rest of the input as its
					   text), or 0 */
};

/*
 * Parse NUL-terminated text of length len. Returns 0 and fills *out, or -1
 * with a message "LINE:COL: what" in err (size errlen), e.g. an unterminated
 * quote. Never crashes on any input (NUL bytes are an error). Commands that
 * have no words left (VAR=.. lines, lone redirections) are not listed; their
 * assignments go into the environment of later commands. On -1, *out is
 * empty and may be passed to sh_script_free.
 */
int	sh_parse(const char *text, size_t len, struct sh_script *out,
	    char *err, size_t errlen);
void	sh_script_free(struct sh_script *);

/*
 * Build a script out of others (shell_merge.c): move src's commands and
 * strings to the end of dst (src is left empty), and copy a string into
 * dst's pool (it lives until sh_script_free).
 */
void	 sh_script_move(struct sh_script *dst, struct sh_script *src);
const char *sh_script_str(struct sh_script *dst, const char *s);

/*
 * SGLang commands (servers and routers) one script may hold for pdwiz
 * check and import: each costs its reader a whole server configuration,
 * so the count bounds their memory (pdwiz.1, LIMITS). The shell reader
 * itself stays linear in the text for any number of commands.
 * sh_sglang_cap: 0, or -1 with "LINE:COL: ..." of the first command past
 * the cap in err.
 */
#define SH_MAX_SGLANG_CMDS	16384
int	sh_sglang_cap(const struct sh_script *, char *err, size_t errlen);

/* Quote s so that bash reads it back as exactly s (single quotes, '\'' for ').
 * Returns a malloc'd string. Plain words made only of [A-Za-z0-9_@%+=:,./-]
 * are returned unquoted. */
char	*sh_quote(const char *s);

#endif
