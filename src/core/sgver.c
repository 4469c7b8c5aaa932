/* sgver.c - SGLang release numbers (see sgver.h). */
#include "sgver.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/*
 * Layout, high to low: major (12 bits), minor (8), patch (12), a fourth
 * release number (8), the kind of release (4: dev, rc, final, post), and
 * its number (20). Comparing the integers compares the releases.
 */
#define SH_MAJOR	52
#define SH_MINOR	44
#define SH_PATCH	32
#define SH_MICRO	24
#define SH_STAGE	20
enum { ST_DEV = 1, ST_RC, ST_FINAL, ST_POST, ST_MAIN };
#define LOW_BITS	((sgver_t)0xffffff)	/* the kind and its number */

static const unsigned long lim[] = { 2047, 255, 4095, 255 };

static void
say(char *why, size_t len, const char *fmt, const char *s)
{
	if (why != NULL && len > 0)
		snprintf(why, len, fmt, s);
}

/* Digits at *p into *out (at most max); false when none or too large. */
static bool
number(const char **p, unsigned long max, unsigned long *out)
{
	unsigned long	v = 0;
	const char	*s = *p;

	if (!isdigit((unsigned char)*s))
		return false;
	while (isdigit((unsigned char)*s)) {
		v = v * 10 + (unsigned long)(*s - '0');
		if (v > max)
			return false;
		s++;
	}
	*p = s;
	*out = v;
	return true;
}

/* The pre-/post-release suffix at p; false when it is not one. */
static bool
suffix(const char *p, unsigned long *stage, unsigned long *n)
{
	static const struct { const char *w; unsigned long st; } kinds[] = {
		{ "rc", ST_RC }, { "post", ST_POST }, { "dev", ST_DEV },
	};
	size_t	i;

	*stage = ST_FINAL;
	*n = 0;
	if (*p == '\0')
		return true;
	if (*p == '.')
		p++;
	for (i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		size_t	len = strlen(kinds[i].w);

		if (strncmp(p, kinds[i].w, len) != 0)
			continue;
		p += len;
		*stage = kinds[i].st;
		if (*p != '\0' && !number(&p, 0xfffff, n))
			return false;
		return *p == '\0';
	}
	return false;
}

sgver_t
sgver_parse(const char *s, char *why, size_t whylen)
{
	unsigned long	 part[4] = { 0, 0, 0, 0 }, stage, n;
	const char	*p = s;
	size_t		 k;

	if (s == NULL || *s == '\0') {
		say(why, whylen, "%sno version given", "");
		return SGVER_UNKNOWN;
	}
	if (*p == 'v' || *p == 'V')
		p++;
	if (!isdigit((unsigned char)*p)) {
		say(why, whylen, "'%s' names no SGLang release (dev, latest "
		    "and nightly builds have no release number)", s);
		return SGVER_UNKNOWN;
	}
	for (k = 0; k < 4; k++) {
		if (!number(&p, lim[k], &part[k]))
			goto bad;
		if (*p != '.' || !isdigit((unsigned char)p[1]))
			break;
		p++;
	}
	if (k == 0 || k == 4 || !suffix(p, &stage, &n))
		goto bad;
	return ((sgver_t)part[0] << SH_MAJOR) | ((sgver_t)part[1] << SH_MINOR) |
	    ((sgver_t)part[2] << SH_PATCH) | ((sgver_t)part[3] << SH_MICRO) |
	    ((sgver_t)stage << SH_STAGE) | (sgver_t)n;
bad:
	say(why, whylen, "'%s' is not an SGLang release number (such as "
	    "0.5.3, 0.5.3rc0 or 0.4.8.post1)", s);
	return SGVER_UNKNOWN;
}

sgver_t
sgver_commit(sgver_t after, unsigned k)
{
	if (after == SGVER_UNKNOWN || k == 0 || k > 0xfffff)
		return SGVER_UNKNOWN;
	return (after & ~LOW_BITS) | ((sgver_t)ST_MAIN << SH_STAGE) | k;
}

int
sgver_is_commit(sgver_t v)
{
	return v != SGVER_UNKNOWN && ((v >> SH_STAGE) & 0xf) == ST_MAIN;
}

int
sgver_cmp(sgver_t a, sgver_t b)
{
	return a < b ? -1 : a > b;
}

const char *
sgver_format(sgver_t v, char *buf, size_t len)
{
	unsigned	micro = (unsigned)(v >> SH_MICRO) & 0xff;
	unsigned	stage = (unsigned)(v >> SH_STAGE) & 0xf;
	unsigned	n = (unsigned)(v & 0xfffff);
	char		four[8] = "";
	int		w;

	if (v == SGVER_UNKNOWN) {
		snprintf(buf, len, "unknown");
		return buf;
	}
	if (micro > 0)
		snprintf(four, sizeof four, ".%u", micro);
	w = snprintf(buf, len, "%u.%u.%u%s", (unsigned)(v >> SH_MAJOR),
	    (unsigned)(v >> SH_MINOR) & 0xff, (unsigned)(v >> SH_PATCH) & 0xfff,
	    four);
	if (w < 0 || (size_t)w >= len)
		return buf;
	if (stage == ST_RC)
		snprintf(buf + w, len - (size_t)w, "rc%u", n);
	else if (stage == ST_POST)
		snprintf(buf + w, len - (size_t)w, ".post%u", n);
	else if (stage == ST_DEV)
		snprintf(buf + w, len - (size_t)w, ".dev%u", n);
	else if (stage == ST_MAIN)
		snprintf(buf + w, len - (size_t)w, "+main.%u", n);
	return buf;
}

/*
 * Is the repository of image (name: its last path part) lmsysorg/sglang,
 * past a registry host ("docker.io/", "registry.local:5000/": a first
 * part with a '.' or a ':', or localhost)?
 */
static bool
own_image(const char *image, const char *name)
{
	const char	*p = image, *slash = strchr(image, '/');
	size_t		 n;

	if (slash != NULL && slash < name - 1) {
		n = (size_t)(slash - image);
		if (memchr(image, '.', n) != NULL ||
		    memchr(image, ':', n) != NULL ||
		    (n == 9 && strncmp(image, "localhost", 9) == 0))
			p = slash + 1;
	}
	return strncmp(p, "lmsysorg/sglang", 15) == 0 &&
	    (p[15] == '\0' || p[15] == ':' || p[15] == '@');
}

sgver_t
sglang_version_from_image(const char *image, char *why, size_t whylen)
{
	const char	*slash, *colon, *name, *at;
	char		 tag[128], repo[128];
	size_t		 n;

	if (image == NULL || *image == '\0') {
		say(why, whylen, "%sno image given", "");
		return SGVER_UNKNOWN;
	}
	at = strchr(image, '@');	/* a digest pins bytes, not a release */
	n = at != NULL ? (size_t)(at - image) : strlen(image);
	slash = NULL;
	for (name = image; name < image + n; name++)
		if (*name == '/')
			slash = name;
	name = slash != NULL ? slash + 1 : image;
	colon = memchr(name, ':', n - (size_t)(name - image));
	snprintf(repo, sizeof repo, "%.*s", (int)((colon != NULL ? colon :
	    image + n) - name), name);
	if (strstr(repo, "sgl") == NULL) {
		say(why, whylen, "the image '%s' is not an SGLang image",
		    image);
		return SGVER_UNKNOWN;
	}
	/* The router's images (lmsysorg/sglang-router, sgl-router) and other
	 * projects' SGLang runtimes (ai-dynamo/sglang-runtime) carry their own
	 * release numbers, not SGLang's. */
	if (strstr(repo, "router") != NULL || strstr(repo, "runtime") != NULL) {
		say(why, whylen, "the tag of '%s' is that image's own release, "
		    "not SGLang's", image);
		return SGVER_UNKNOWN;
	}
	/* Only SGLang's own images (lmsysorg/sglang, from any registry)
	 * are tagged with its releases: another image's tag is its
	 * builder's (rocm/sgl-dev:v0.5.13.post1-...-20260623 is a build
	 * of a later commit, team/sglang:v0.5.4 whatever the team built). */
	if (!own_image(image, name)) {
		say(why, whylen, "the image '%s' is not SGLang's own "
		    "(lmsysorg/sglang): its tag names no SGLang release", image);
		return SGVER_UNKNOWN;
	}
	if (colon == NULL) {
		say(why, whylen, "the image '%s' has no tag (latest): it names "
		    "no SGLang release", image);
		return SGVER_UNKNOWN;
	}
	/* v0.5.2-cu126, v0.5.13.post1-rocm720-mi35x: the release is the part
	 * before the first '-'. */
	snprintf(tag, sizeof tag, "%.*s", (int)(image + n - colon - 1),
	    colon + 1);
	tag[strcspn(tag, "-")] = '\0';
	if (tag[0] == 'v' || tag[0] == 'V' || isdigit((unsigned char)tag[0])) {
		sgver_t	v = sgver_parse(tag, NULL, 0);

		if (v != SGVER_UNKNOWN)
			return v;
	}
	say(why, whylen, "the tag of '%s' names no SGLang release", image);
	return SGVER_UNKNOWN;
}
