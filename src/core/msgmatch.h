/*
 * msgmatch.h - from a message back to the rules that say it.
 *
 * Every rule's message is SGLang's text with holes ({backend}, {tp_size
 * // dp_size}, {x!r}); read as a template, its literal parts must appear
 * in a message in order and the holes take what lies between them. So
 * that a log of thousands of lines costs thousands of look-ups, not
 * thousands times the rules, each template is indexed under its rarest
 * whole word: a text is matched only against the templates whose word it
 * holds. Whitespace runs count as one space on both sides.
 *
 * Besides the rules, argparse's own messages (the errors pdwiz's argument
 * reader gives as argparse-*) are templates too, matched when asked for.
 */
#ifndef PDWIZ_MSGMATCH_H
#define PDWIZ_MSGMATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "catalog.h"

struct mm_index;

struct mm_hole {
	const char	*expr;		/* the hole's text in the template
					   ("disaggregation_transfer_backend!r") */
	char		*value;		/* what it took; owned */
};

struct mm_hit {
	const struct rule *rule;	/* NULL: an argparse template */
	const char	*id;		/* the rule's id, or argparse-* */
	const char	*tmpl;		/* the template's text */
	size_t		 lit;		/* literal bytes matched */
	bool		 whole;		/* it matched the whole text */
	struct mm_hole	*holes;
	size_t		 nholes;
};

struct mm_near {			/* a template close to the text */
	const struct rule *rule;
	const char	*id;
	const char	*tmpl;
	unsigned	 percent;	/* of the template's literal words the
					   text has, in order */
};

enum { MM_RULES = 1, MM_ARGPARSE = 2 };

struct mm_index	*mm_index_new(const struct catalog *);
void		 mm_index_free(struct mm_index *);

/*
 * The templates (of the kinds in the mask) text matches, best first: those
 * that match the whole text, then by literal bytes matched. A template
 * may match inside a longer text ("Scheduler failed: ValueError: ...")
 * when its literal parts are at least 24 bytes. Silent rules (whose
 * message SGLang never writes) are not indexed.
 */
size_t		 mm_match(const struct mm_index *, const char *text,
		    unsigned mask, struct mm_hit **out);
void		 mm_hits_free(struct mm_hit *, size_t);

/*
 * The rules whose template shares most of its literal words with text (in
 * order: at least 60% of the template's words and half of the text's),
 * best first, at most max; for a message no template matches.
 */
size_t		 mm_closest(const struct mm_index *, const char *text,
		    struct mm_near *out, size_t max);

/*
 * Rules whose message is empty (a bare assert) raised in function func:
 * their number, at most max into out.
 */
size_t		 mm_bare(const struct mm_index *, const char *func,
		    const struct rule **out, size_t max);

#endif
