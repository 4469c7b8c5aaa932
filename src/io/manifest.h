/*
 * manifest.h - the SGLang commands of Kubernetes manifests.
 *
 * A manifest (one or more YAML documents, `List` kinds included) is read
 * for its pods: Pod, Deployment, StatefulSet, Job, LeaderWorkerSet,
 * RoleBasedGroup (v1alpha1 and later), llm-d DisaggregatedSet, OME
 * ClusterServingRuntime / ServingRuntime / InferenceService and Dynamo
 * DynamoGraphDeployment. Each container's command and args (a `sh -c`
 * script read by the shell reader) become commands of one shell script,
 * so the per-server and cross-role checks read them like a launch script:
 *
 * - Kubernetes `$(VAR)` is expanded from the container's env as the kubelet
 *   does; a value from valueFrom (downward API, secrets, config maps) or a
 *   variable the container does not define is unknown (the word is
 *   unresolved). The group size and worker index a LeaderWorkerSet or
 *   RoleBasedGroup controller injects (LWS_GROUP_SIZE, LWS_WORKER_INDEX,
 *   RBG_LWP_GROUP_SIZE, RBG_LWP_WORKER_INDEX) follow from the manifest and
 *   are set; the leader's address is not known.
 * - Every pod is a command of its own with sh_cmd.machine naming the pod:
 *   replicas are instances, and a leader and its workers are the ranks of
 *   one instance. Pods after the first of a template are marked repeat.
 * - Every word, environment entry and command keeps the line and column
 *   of the manifest (inside a sh -c script: of the word in the script).
 */
#ifndef PDWIZ_MANIFEST_H
#define PDWIZ_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>

#include "io/shell.h"

struct ynode;
struct result;

#define MANIFEST_MAX_PODS	4096
/* Bytes the $(VAR) expansions of one container may make, as much as the
 * shell reader's expansions (SH_MAX_OUT): past it the manifest is refused,
 * "expansion too large". */
#define MANIFEST_MAX_EXPAND	((size_t)64 << 20)

/* Does this document look like a Kubernetes object (apiVersion, kind)? */
bool	manifest_is_object(const struct ynode *doc);

/* Does text look like a Kubernetes manifest (top-level apiVersion: and
 * kind: lines), without parsing it? */
bool	manifest_sniff(const char *text, size_t len);

/*
 * Read the documents of docs (a sequence, as ydoc_parse_stream gives it)
 * parsed from text. Returns 0 and the commands in *out (sh_script_free
 * it); 1 with the reason in err when no container has an SGLang command
 * (nothing to check); or -1 with "name:line:col: what" in err: more than MANIFEST_MAX_PODS pods, $(VAR) expansions past
 * MANIFEST_MAX_EXPAND, a sh -c script the shell reader refuses. What the reader sees wrong in a container itself (a
 * whole command line in one command item, which Kubernetes execs as the
 * name of a program) goes into notes (NULL: not wanted), at its line.
 */
int	manifest_read(const char *name, const char *text, size_t len,
	    const struct ynode *docs, struct sh_script *out,
	    struct result *notes, char *err, size_t errlen);

/* Parse text (a YAML stream) and read it. */
int	manifest_parse(const char *name, const char *text, size_t len,
	    struct sh_script *out, char *err, size_t errlen);

#endif
