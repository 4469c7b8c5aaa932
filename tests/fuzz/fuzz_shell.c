/*
 * fuzz_shell.c - the shell-snippet reader (sh_parse).
 *
 * Besides "no crash, no leak": every word read back through sh_quote and
 * sh_parse must arrive unchanged, in argument position of a command, and
 * count as unknown only when it is a placeholder (PLACEHOLDER, <your-ip>).
 */
#include "fuzz.h"
#include "io/shell.h"
#include "io/shell_int.h"

static void
roundtrip(const char *word)
{
	struct sh_script	 sc = { 0 };
	char			 err[256];
	char			*q = sh_quote(word);
	char			*line = xasprintf("echo %s\n", q);

	if (sh_parse(line, strlen(line), &sc, err, sizeof err) != 0) {
		fprintf(stderr, "quoted word does not parse: [%s]: %s\n", q,
		    err);
		abort();
	}
	if (sc.ncmds != 1 || sc.cmds[0].nwords != 2 ||
	    strcmp(sc.cmds[0].words[1].text, word) != 0 ||
	    sc.cmds[0].words[1].unresolved != sh_placeholder(word)) {
		fprintf(stderr, "quoted word changed: [%s] -> [%s]\n", word, q);
		abort();
	}
	sh_script_free(&sc);
	free(line);
	free(q);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sh_script	 sc = { 0 };
	char			 err[512];
	char			*text = fuzz_text(data, size);
	size_t			 i, j, checked = 0;

	if (sh_parse(text, size, &sc, err, sizeof err) == 0) {
		for (i = 0; i < sc.ncmds; i++) {
			const struct sh_cmd	*c = &sc.cmds[i];

			if (c->argstart > c->nwords)
				abort();
			for (j = 0; j < c->nenv; j++)
				if (c->env[j].name == NULL ||
				    c->env[j].value == NULL)
					abort();
			for (j = 0; j < c->nwords && checked < 8; j++) {
				if (c->words[j].text[0] == '\0')
					continue;
				roundtrip(c->words[j].text);
				checked++;
			}
		}
	} else if (memchr(err, '\0', sizeof err) == NULL)
		abort();
	sh_script_free(&sc);
	free(text);
	return 0;
}
