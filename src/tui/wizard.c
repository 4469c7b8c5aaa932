/*
 * wizard.c - the curses front end of the wizard: arguments, loading, start
 * and stop of curses, signals and the key loop. It decides nothing about
 * SGLang. Keys become intents in wiz_actions.c (through the key table of
 * wiz_keys.c), drawing is in wiz_draw.c, modal interaction in wiz_modal.c.
 */
#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"
#include "tui/vm.h"
#include "tui/wiz.h"

/* last: its capability macros (lines, columns ...) would rename the
 * fields of the headers above */
#include <term.h>

/* Exit status as pdwiz(1) gives it: the wizard ends 0, or 2 when it
 * cannot start. */
#define EXIT_OK		0
#define EXIT_USAGE	2

int	wizard_main(int, char **);

static bool		 curses_on;
static const char	*mark_x = "x";	/* unavailable marker in this locale */

static void
ui_end(void)
{
	if (curses_on) {
		endwin();
		curses_on = false;
	}
}

static void
on_term_signal(int sig)
{
	wiz_got_signal = sig;
}

static void
on_fatal_signal(int sig)
{
	/* Restore the terminal before dying (endwin is what every curses
	 * program does here; we are about to exit anyway). */
	if (curses_on)
		endwin();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* ---- start and run ---- */

static void
ui_start(void)
{
	const char	*nc = getenv("NO_COLOR");

	if (getenv("ESCDELAY") == NULL)
		setenv("ESCDELAY", "25", 1);
	initscr();
	curses_on = true;
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	timeout(250);
	curs_set(1);
	wiz_use_colors = (nc == NULL || *nc == '\0') && has_colors();
	if (wiz_use_colors) {
		start_color();
		use_default_colors();
		init_pair(C_TITLE, COLOR_CYAN, -1);
		init_pair(C_ERROR, COLOR_RED, -1);
		init_pair(C_WARN, COLOR_YELLOW, -1);
		init_pair(C_FORCED, COLOR_BLUE, -1);
		init_pair(C_BLOCKED, COLOR_MAGENTA, -1);
		init_pair(C_OK, COLOR_GREEN, -1);
	}
}

/*
 * The terminal TERM names must be known to terminfo and able to move the
 * cursor (cup), else curses would exit with its own words (unknown or
 * unset TERM) or draw an unusable screen (dumb). Checked before curses
 * starts; 0, or -1 after pdwiz's message.
 */
static int
terminal_ok(void)
{
	const char	*term = getenv("TERM");
	const char	*why = NULL;
	char		*cup;
	int		 err = 0;

	if (term == NULL)
		why = "is not set";
	else if (*term == '\0')
		why = "is empty";
	else if (setupterm(term, STDOUT_FILENO, &err) != OK)
		why = "is not a terminal type this system's terminfo knows";
	else {
		cup = tigetstr("cup");
		if (cup == NULL || cup == (char *)-1)
			why = "cannot move the cursor";
		del_curterm(cur_term);
	}
	if (why == NULL)
		return 0;
	fprintf(stderr, "pdwiz: the wizard needs a terminal that supports "
	    "cursor movement; TERM%s%s %s; use `pdwiz check` / `pdwiz emit` "
	    "for batch use\n", term != NULL && *term != '\0' ? "=" : "",
	    term != NULL ? term : "", why);
	return -1;
}

static void
set_signals(void)
{
	struct sigaction	sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_term_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_fatal_signal;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGABRT, &sa, NULL);
	sigaction(SIGFPE, &sa, NULL);
	atexit(ui_end);
}

/* What did not load, in a pane over the pages before anything else. */
static void
load_pane(struct ui *ui, const char *file)
{
	const char	*note = vm_load_note(ui->vm);
	char		*t;

	if (note == NULL)
		return;
	if (vm_load_failed(ui->vm))
		t = xasprintf("%s could not be opened:\n\n%s\n\nThe pages show "
		    "pdwiz's default deployment, not %s (it counts as an "
		    "error until saved elsewhere or fixed). Saving over %s "
		    "asks first.", file, note, file, file);
	else
		t = xasprintf("Imported %s with these gaps:\n\n%s\n\nThey "
		    "are also on the review page.", file, note);
	wiz_textbox(ui, vm_load_failed(ui->vm) ? "Not loaded" :
	    "Imported, with gaps", t);
	free(t);
}

/* The interactive session over a loaded view-model; the exit status. */
static int
run(struct vm *vm, const char *file, bool import, bool quick)
{
	struct ui	ui;
	int		rc = EXIT_OK;

	wiz_mark_x = mark_x;
	wiz_utf8 = strcmp(mark_x, "x") != 0;
	vm_refresh(vm);
	memset(&ui, 0, sizeof ui);
	ui.back_page = -1;
	ui.all_back = -1;
	ui.vm = vm;
	if (file != NULL && vm_path(vm) == NULL && !import) {
		ui.save_path = xstrdup(file);
		wiz_set_status(&ui, "%s: new deployment (s saves it there)",
		    file);
	}
	if (vm_suggested_path(vm) != NULL)
		ui.save_path = xstrdup(vm_suggested_path(vm));
	if (vm_load_note(vm) != NULL)
		wiz_set_status(&ui, "%s", vm_load_note(vm));
	set_signals();
	ui_start();
	load_pane(&ui, file);
	if (quick)
		wiz_quick_start(&ui);
	while (!ui.quit && !wiz_got_signal) {
		int	c;

		wiz_draw(&ui);
		c = wiz_getkey();
		if (c == -2)
			break;
		wiz_key(&ui, c);
	}
	ui_end();
	if (wiz_got_signal) {
		fprintf(stderr, "pdwiz: interrupted%s\n", vm_dirty(vm) ?
		    "; unsaved changes were discarded" : "");
		rc = 128 + (int)wiz_got_signal;
	}
	free(ui.status);
	free(ui.cut);
	free(ui.save_path);
	return rc;
}

static int
usage_error(const char *m)
{
	fprintf(stderr, "pdwiz: %s\nusage: pdwiz [--pages] [FILE | --import "
	    "SCRIPT]\n", m);
	return EXIT_USAGE;
}

static bool
is_yaml_name(const char *f)
{
	size_t	n = strlen(f);

	return (n > 5 && strcmp(f + n - 5, ".yaml") == 0) ||
	    (n > 4 && strcmp(f + n - 4, ".yml") == 0);
}

/* The wizard's arguments: [--pages] FILE, or --import SCRIPT. 0, or an
 * exit status. --pages skips the quick start of a new deployment. */
static int
parse_args(int argc, char **argv, const char **file, const char **script,
    bool *pages)
{
	*file = *script = NULL;
	*pages = false;
	if (argc >= 2 && strcmp(argv[1], "--pages") == 0) {
		*pages = true;
		argv[1] = argv[0];
		argc--;
		argv++;
	}
	if (argc >= 2 && strcmp(argv[1], "--import") == 0) {
		if (argc != 3)
			return usage_error("--import needs one SCRIPT");
		*script = argv[2];
	} else if (argc == 2)
		*file = argv[1];
	else if (argc > 2)
		return usage_error("too many arguments");
	if (*file != NULL && access(*file, F_OK) != 0 && !is_yaml_name(*file)) {
		/* Most likely a mistyped command, not a new deployment. */
		fprintf(stderr, "pdwiz: %s: no such file; a new deployment file "
		    "is named *.yaml (commands: check, emit, import, explain, "
		    "rules, coverage; see pdwiz --help)\n", *file);
		return EXIT_USAGE;
	}
	return 0;
}

/* Is this file a launch script rather than a deployment file? */
static bool
is_script(const char *f)
{
	struct stat	st;

	return !is_yaml_name(f) && stat(f, &st) == 0 && S_ISREG(st.st_mode);
}

/* A view-model with the forms and the file or script loaded, or NULL. A
 * script that cannot be imported is refused: nothing else is opened in its
 * place. */
static struct vm *
load(const struct catalog *cat, const char *file, const char *script)
{
	struct vm	*vm = vm_new(cat);
	char		 err[4096], *forms = xasprintf("%s/forms", cat->dir);
	struct stat	 st;

	if (vm_load_forms(vm, forms, err, sizeof err) != 0) {
		fprintf(stderr, "pdwiz: %s\n", err);
		free(forms);
		vm_free(vm);
		return NULL;
	}
	free(forms);
	/* A new file: start fresh and offer it as the save path. */
	if (file != NULL && stat(file, &st) == 0) {
		if (vm_open_file(vm, file, err, sizeof err) == 0)
			vm_note_source(vm, file, false);
	} else if (script != NULL) {
		if (vm_import_script(vm, script, err, sizeof err) != 0) {
			fprintf(stderr, "pdwiz: %s: cannot import: %s\n"
			    "pdwiz: nothing opened (pdwiz check %s lists every "
			    "problem)\n", script, vm_load_note(vm), script);
			vm_free(vm);
			return NULL;
		}
		vm_note_source(vm, script, true);
	}
	return vm;
}

int
wizard_main(int argc, char **argv)
{
	struct catalog	*cat;
	struct vm	*vm;
	const char	*file, *script;
	char		 err[2048];
	int		 rc;
	bool		 pages;

	if ((rc = parse_args(argc, argv, &file, &script, &pages)) != 0)
		return rc;
	/* pdwiz launch.sh: a script is imported, as with --import. */
	if (file != NULL && is_script(file)) {
		script = file;
		file = NULL;
	}
	setlocale(LC_ALL, "");
	if (strcmp(nl_langinfo(CODESET), "UTF-8") == 0)
		mark_x = "✗";
	if ((cat = catalog_open_default(err, sizeof err)) == NULL) {
		fprintf(stderr, "pdwiz: %s\n", err);
		return EXIT_USAGE;
	}
	if ((vm = load(cat, file, script)) == NULL) {
		catalog_free(cat);
		return EXIT_USAGE;
	}
	if (terminal_ok() != 0) {
		vm_free(vm);
		catalog_free(cat);
		return EXIT_USAGE;
	}
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "pdwiz: the wizard needs a terminal; for "
		    "scripts use pdwiz check\n");
		vm_free(vm);
		catalog_free(cat);
		return EXIT_USAGE;
	}
	/* A new deployment starts with the quick start. */
	rc = run(vm, script != NULL ? script : file, script != NULL, !pages && script == NULL && vm_path(vm) == NULL &&
	    vm_load_note(vm) == NULL);
	vm_free(vm);
	catalog_free(cat);
	return rc;
}
