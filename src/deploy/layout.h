/*
 * layout.h - where every process of a deployment runs: for each prefill and
 * decode instance and node rank its host, GPU range, HTTP port, bootstrap
 * port and rendezvous address; the router's host, port and lists.
 *
 * A value the user set (in the deployment file, the wizard, or a script's
 * command line) is kept as given and checked by the rules; a value left out
 * is derived here:
 *
 *  - hosts: a role without hosts runs on 127.0.0.1; the router without hosts
 *    runs where the first prefill instance runs.
 *  - GPUs: SGLang gives a server tp x pp x dp / nnodes GPUs per node (dp
 *    counts only without --enable-dp-attention), from --base-gpu-id in steps
 *    of --gpu-id-step. Instances are packed onto each host's GPUs in order,
 *    prefill before decode, each role at the lowest base GPU at which all of
 *    its instances fit next to what is already placed (instances sharing a
 *    host are gpu_step apart). A host has gpus_per_host GPUs (8 when not
 *    stated).
 *  - ports: counted up from each role's base (HTTP 30000, bootstrap 8998,
 *    rendezvous 5000, router 8000) to the first value free on every host
 *    the role uses; instances sharing a host are port_step apart (1, or 10
 *    for multi-node instances and DP attention, whose rendezvous port also
 *    reserves the ports SGLang derives from it).
 *  - the router lists every instance (rank-0 host, HTTP port, bootstrap
 *    port) and is reached at its host.
 */
#ifndef PDWIZ_LAYOUT_H
#define PDWIZ_LAYOUT_H

#include "deploy/deploy.h"

#define LAY_HTTP_BASE		30000
#define LAY_BOOTSTRAP_BASE	8998
#define LAY_DIST_BASE		5000
#define LAY_ROUTER_BASE		8000
#define LAY_GPUS_PER_HOST	8
/* Ports SGLang uses from a rendezvous port P: P (torch) and P+1..P+6 (the
 * ZMQ sockets of PortArgs, port_base = P + 1). A single-node server with
 * DP attention and no --dist-init-addr takes P = --port + 233 (SGLang's
 * ZMQ_TCP_PORT_DELTA). */
#define LAY_DIST_SPAN		8
#define LAY_ZMQ_DELTA		233

enum lay_src { LAY_DERIVED, LAY_USER };

struct lay_server {			/* one launch: instance x node rank */
	enum role	 role;
	int		 instance, node_rank;
	const char	*host;		/* the node's address */
	const char	*bind;		/* its --host */
	int		 base_gpu;	/* --base-gpu-id */
	int		 ngpus;		/* GPUs SGLang uses on this node */
	int		 gpu_span;	/* GPUs from base_gpu to its last one */
	int		 host_gpus;	/* GPUs of the host; -1 unknown */
	int		 port;		/* --port */
	int		 bootstrap_port;	/* prefill; -1 for decode */
	const char	*dist_host;	/* rank-0 host; NULL single-node */
	int		 dist_port;	/* --dist-init-addr port; -1 none */
	bool		 dp_zmq;	/* DP attention on one node: ZMQ ports
					   from port + LAY_ZMQ_DELTA */
	enum lay_src	 gpu_src, port_src, bootstrap_src, dist_src;
	int		 host_ord;	/* the role's earlier instances on this
					   node's host: its GPUs are base_gpu
					   + host_ord x gpu_step */
};

struct lay_role {			/* the per-role values pin writes */
	int		 port, port_step, bootstrap_port, dist_port;
	int		 base_gpu, gpu_step, ngpus;
	enum lay_src	 port_src, bootstrap_src, dist_src, gpu_src;
	enum lay_src	 step_src, gpu_step_src, hosts_src;
};

struct layout {
	struct lay_server	*s;	/* prefill instances x ranks, then decode */
	size_t			 n;
	struct lay_role		 role[NPD_ROLE];
	int			 gpus_per_host;	/* -1: unknown (a script) */
	enum lay_src		 gpus_src;
	const char		*router_host;	/* where the router runs */
	const char		*router_bind;	/* its --host */
	int			 router_port;
	enum lay_src		 router_host_src, router_port_src;
	struct endpoint		*prefill, *decode;	/* the router's lists */
	size_t			 nprefill, ndecode;
	enum lay_src		 urls_src;
};

/* The layout of d; free with layout_free. */
void	deployment_layout(const struct catalog *, const struct deployment *,
	    struct layout *);
void	layout_free(struct layout *);
/* The server of role r, instance inst, node rank k, or NULL. */
const struct lay_server *layout_server(const struct layout *, enum role,
	    int inst, int rank);
/* The same, looked for first at index hint (the servers are in the order
 * of the plan: prefill instances x ranks, then decode's; each is there
 * once), so that a plan finds each in one step. */
const struct lay_server *layout_server_at(const struct layout *, size_t hint,
	    enum role, int inst, int rank);
/* GPUs SGLang uses per node for a role (tp x pp x dp / nnodes, at least 1),
 * and the span from the base GPU to the last one (--gpu-id-step). */
void	layout_role_gpus(const struct catalog *, const struct deployment *,
	    enum role, int *ngpus, int *span);

#endif
