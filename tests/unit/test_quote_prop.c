/*
 * test_quote_prop.c - property: any string (every byte but NUL) quoted by
 * pdwiz reaches a program started by real bash unchanged. Through
 * sh_quote directly (also read back by pdwiz's own shell reader), and
 * through the deployment shell emitter (model path, a string option and an
 * environment variable of a generated launch.sh, run with a stand-in
 * python3 that prints what it got). Seed: $PDWIZ_PROP_SEED or fixed.
 */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "deploy/deploy.h"
#include "emit/emit.h"
#include "io/shell.h"

#define NQUOTE		1200	/* strings through sh_quote */
#define NDEPLOY		400	/* deployments, three strings each */
#define ENVNAME		"SGLANG_DISAGGREGATION_NIXL_BACKEND_PARAMS"

static struct catalog	*cat;
static unsigned long long rng;
static char		 dir[64];

static unsigned
rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

/* A random string of 0..maxlen bytes 1..255, rich in shell specials. */
static char *
rnd_string(size_t minlen, size_t maxlen)
{
	static const char	 special[] = " '\"\\$`!*?[]{}()<>|&;#~=%\n\t\r,:"
	    "@^-+./";
	size_t			 len = minlen + rnd((unsigned)(maxlen - minlen + 1));
	char			*s = malloc(len + 1);
	size_t			 i;

	for (i = 0; i < len; i++)
		s[i] = rnd(2) ? special[rnd(sizeof special - 1)] :
		    (char)(1 + rnd(255));
	s[len] = '\0';
	return s;
}

/* s with bytes outside printable ASCII as \xNN, for messages. */
static char *
shown(const char *s)
{
	struct buf	b = { 0 };

	for (; *s != '\0'; s++) {
		unsigned char	c = (unsigned char)*s;

		if (c >= 0x20 && c < 0x7f && c != '\\')
			buf_putc(&b, (char)c);
		else
			buf_printf(&b, "\\x%02x", c);
	}
	buf_putc(&b, '\0');
	return buf_steal(&b);
}

static char *
slurp(const char *path, size_t *len)
{
	char	 err[256];
	char	*t = read_file(path, 64 * 1024 * 1024, len, err, sizeof err);

	if (t == NULL)
		fail_msg("%s", err);
	return t;
}

static void
put(const char *path, const char *text)
{
	FILE	*f = fopen(path, "w");

	if (f == NULL || fputs(text, f) == EOF || fclose(f) != 0)
		fail_msg("cannot write %s", path);
}

/* Run cmd with sh; fail unless it exits 0. */
static void
sh(const char *cmd)
{
	int	rc = system(cmd);

	if (rc != 0)
		fail_msg("'%s' failed (%d)", cmd, rc);
}

static int
setup(void **state)
{
	const char	*seed = getenv("PDWIZ_PROP_SEED");

	(void)state;
	rng = seed ? strtoull(seed, NULL, 0) : 0x9e3779b97f4a7c15ULL;
	if (rng == 0)
		rng = 1;
	cat = test_catalog();
	snprintf(dir, sizeof dir, "/tmp/pdwiz-prop.XXXXXX");
	if (mkdtemp(dir) == NULL)
		return -1;
	return 0;
}

static int
teardown(void **state)
{
	char	*cmd = xasprintf("rm -rf '%s'", dir);

	(void)state;
	(void)system(cmd);
	free(cmd);
	catalog_free(cat);
	intern_free_all();
	return 0;
}

/* One bash run prints every quoted string NUL-terminated; compare. */
static void
quote_in_locale(const char *locale)
{
	struct buf	 script = { 0 }, want = { 0 };
	char		*path = xasprintf("%s/q.sh", dir);
	char		*out = xasprintf("%s/q.out", dir);
	char		*cmd, *got;
	size_t		 i, len;

	for (i = 0; i < NQUOTE; i++) {
		char			*s = rnd_string(0, i % 10 == 0 ? 300 : 40);
		char			*q = sh_quote(s);
		char			*line = xasprintf("x %s\n", q);
		struct sh_script	 sc = { 0 };
		char			 err[256];

		buf_printf(&script, "printf '%%s\\0' %s\n", q);
		buf_add(&want, s, strlen(s) + 1);
		/*
		 * pdwiz's own reader reads it back too; it takes CR LF for a
		 * line end even inside quotes (Windows scripts), bash does not.
		 */
		if (strstr(s, "\r\n") == NULL &&
		    (sh_parse(line, strlen(line), &sc, err, sizeof err) != 0 ||
		    sc.ncmds != 1 || sc.cmds[0].nwords != 2 ||
		    strcmp(sc.cmds[0].words[1].text, s) != 0))
			fail_msg("sh_parse does not read back sh_quote of "
			    "string %zu: \"%s\" (%s)", i, shown(s),
			    sc.ncmds == 1 && sc.cmds[0].nwords == 2 ?
			    shown(sc.cmds[0].words[1].text) : err);
		sh_script_free(&sc);
		free(line);
		free(q);
		free(s);
	}
	put(path, script.s);
	cmd = xasprintf("LC_ALL=%s bash --norc --noprofile '%s' > '%s'",
	    locale, path, out);
	sh(cmd);
	got = slurp(out, &len);
	if (len != want.len || memcmp(got, want.s, len) != 0) {
		for (i = 0; i < len && i < want.len && got[i] == want.s[i]; i++)
			continue;
		fail_msg("bash (%s) output differs at byte %zu of %zu", locale,
		    i, want.len);
	}
	free(got);
	free(cmd);
	free(out);
	free(path);
	buf_free(&script);
	buf_free(&want);
}

static void
test_sh_quote_bash(void **state)
{
	(void)state;
	quote_in_locale("C");
	quote_in_locale("C.UTF-8");
}

/* The value after flag in the NUL-separated argv, or NULL. */
static const char *
arg_after(const char *got, size_t len, const char *flag)
{
	const char	*p = got, *end = got + len;

	while (p < end) {
		const char	*next = p + strlen(p) + 1;

		if (strcmp(p, flag) == 0)
			return next < end ? next : NULL;
		p = next;
	}
	return NULL;
}

/*
 * Every deployment's launch.sh is written first; then one bash runs them
 * all, each in its own subshell (a fork of that bash, so one script's
 * state never reaches the next) with the arguments a user would give:
 * "bash launch.sh prefill-0-0" and ". launch.sh prefill-0-0" read the
 * same text with the same parser.
 */
static void
test_emit_shell_bash(void **state)
{
	struct buf	 driver = { 0 };
	char		*bin = xasprintf("%s/bin", dir);
	char		*py = xasprintf("%s/bin/python3", dir);
	char		*all = xasprintf("%s/launch-all.sh", dir);
	char		*cmd = xasprintf("PATH='%s':\"$PATH\" bash --norc "
	    "--noprofile '%s'", bin, all);
	char		*model[NDEPLOY], *name[NDEPLOY], *env[NDEPLOY];
	size_t		 i;

	(void)state;
	mkdir(bin, 0755);
	put(py, "#!/bin/sh\nprintf '%s\\0' \"$@\" \"ENV=${" ENVNAME "-unset}\"\n");
	chmod(py, 0755);
	for (i = 0; i < NDEPLOY; i++) {
		struct deployment	 d;
		char			 err[512], *text, *launch;

		model[i] = rnd_string(1, 40);
		name[i] = rnd_string(1, 40);
		env[i] = rnd_string(1, 40);
		deployment_default(&d, model[i]);
		if (deployment_set_shared(cat, &d, "served_model_name", name[i],
		    err, sizeof err) != 0 ||
		    deployment_set(cat, &d, ROLE_PREFILL, ENVNAME, env[i], err,
		    sizeof err) != 0)
			fail_msg("deployment %zu: %s", i, err);
		text = emit_shell(cat, &d, false);
		launch = xasprintf("%s/launch.%zu.sh", dir, i);
		put(launch, text);
		buf_printf(&driver, "( . '%s' prefill-0-0 ) > '%s/e.%zu.out' || "
		    "{ echo \"launch.sh of deployment %zu exited $?\" >&2; "
		    "exit 1; }\n", launch, dir, i, i);
		free(launch);
		free(text);
		deployment_free(&d);
	}
	put(all, driver.s);
	sh(cmd);
	for (i = 0; i < NDEPLOY; i++) {
		char		*out = xasprintf("%s/e.%zu.out", dir, i);
		char		*envarg = xasprintf("ENV=%s", env[i]);
		char		*got;
		const char	*v;
		size_t		 len;

		got = slurp(out, &len);
		if ((v = arg_after(got, len, "--model-path")) == NULL ||
		    strcmp(v, model[i]) != 0)
			fail_msg("deployment %zu: model path changed", i);
		if ((v = arg_after(got, len, "--served-model-name")) == NULL ||
		    strcmp(v, name[i]) != 0)
			fail_msg("deployment %zu: served model name changed", i);
		if (len < strlen(envarg) + 1 || strcmp(got + len -
		    strlen(envarg) - 1, envarg) != 0)
			fail_msg("deployment %zu: environment value changed", i);
		free(got);
		free(envarg);
		free(out);
		free(env[i]);
		free(name[i]);
		free(model[i]);
	}
	buf_free(&driver);
	free(cmd);
	free(all);
	free(py);
	free(bin);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sh_quote_bash),
		cmocka_unit_test(test_emit_shell_bash),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
