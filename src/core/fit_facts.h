/*
 * fit_facts.h - the memory estimate as facts for the rules (fit_*), set
 * when a config names its accelerator (the gpu fact).
 */
#ifndef PDWIZ_FIT_FACTS_H
#define PDWIZ_FIT_FACTS_H

#include <stdbool.h>
#include <stddef.h>

#include "catalog.h"
#include "config.h"

struct fit_gpu;

/* The note whose diagnostic carries the fit_figures fact (engine.c). */
#define FIT_ESTIMATE_RULE	"fit-estimate"

/* Set fit_estimated, fit_summary and the numbers in cfg (see fit_facts.c);
 * also the platform and gpu_sm facts where the accelerator settles them
 * and they are not given. Nothing without a gpu fact. */
void	fit_facts(const struct catalog *, struct config *);
/* Is option name one of the facts the accelerator settles (platform,
 * gpu_sm), rather than the model? */
bool	fit_fact_from_gpu(const char *name);

/* The accelerator called name, or NULL and a message naming the known
 * ones (for refusing an unknown --gpu up front). */
const struct fit_gpu *fit_facts_gpu(const struct catalog *, const char *name,
	    char *err, size_t errlen);

#endif
