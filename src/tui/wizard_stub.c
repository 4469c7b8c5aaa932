/* wizard_stub.c - placeholder until the wizard lands (issue: the wizard). */
#include <stdio.h>

int	wizard_main(int, char **);

int
wizard_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fputs("pdwiz: the wizard is not built yet; use pdwiz check\n", stderr);
	return 2;
}
