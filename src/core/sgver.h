/*
 * sgver.h - SGLang release numbers: parsed, compared, printed, and read
 * from a container image reference (lmsysorg/sglang:v0.4.8.post1).
 *
 * A release is packed into one integer that orders like PEP 440 does for
 * SGLang's tags: 0.5.3.dev1 < 0.5.3rc0 < 0.5.3rc2 < 0.5.3 < 0.5.3.post1 <
 * 0.5.4; a fourth number (0.4.5.2) sorts between 0.4.5.post* and 0.4.6.
 * SGVER_UNKNOWN (0) is a version nothing says: dev, latest, nightly, a
 * branch name, or text that is not a release number.
 *
 * A commit of SGLang's main branch that the catalog names (the commits of
 * rules/flag-history.yaml) is a version too: it sorts after the newest
 * release it contains and before the next one, commits after the same
 * release in the order the catalog lists them (sgver_commit). Its text is
 * the catalog's (flaghist_vname); sgver_format writes "0.5.13+main.1".
 */
#ifndef PDWIZ_SGVER_H
#define PDWIZ_SGVER_H

#include <stddef.h>
#include <stdint.h>

typedef uint64_t sgver_t;

#define SGVER_UNKNOWN	((sgver_t)0)
#define SGVER_TEXT_MAX	48	/* enough for any sgver_format result */

/*
 * "0.5.3rc0", "v0.4.8.post1", "0.5.18", "0.4.5.2", "0.5.3.dev1": the
 * release, or SGVER_UNKNOWN (then why, when not NULL, says why: "dev is
 * not a release number").
 */
sgver_t		 sgver_parse(const char *s, char *why, size_t whylen);
/* <0, 0, >0 like strcmp; SGVER_UNKNOWN sorts first. */
int		 sgver_cmp(sgver_t, sgver_t);
/* The k-th (1-based) named commit of main after release after. */
sgver_t		 sgver_commit(sgver_t after, unsigned k);
/* Is v such a commit (not a release)? */
int		 sgver_is_commit(sgver_t v);
/* Canonical text without the v ("0.4.8.post1"); "unknown" for 0. */
const char	*sgver_format(sgver_t, char *buf, size_t len);

/*
 * The release an image reference names by its tag: "lmsysorg/sglang:
 * v0.4.8.post1", "lmsysorg/sglang:v0.5.2-cu126", "registry:5000/
 * lmsysorg/sglang:v0.5.13.post1-rocm720-mi35x@sha256:...". Only SGLang's
 * own repository, lmsysorg/sglang (past a registry host), names one:
 * another image's tag is its builder's; a missing tag is "latest".
 * SGVER_UNKNOWN and why otherwise.
 */
sgver_t		 sglang_version_from_image(const char *image, char *why,
		    size_t whylen);

#endif
