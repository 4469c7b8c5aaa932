/*
 * emit_runbook.c - a Markdown runbook that runs as written: the hosts and
 * what each runs (GPUs, ports), pre-flight checks, each host's servers as
 * a ```bash block to paste there (nohup, a log and a PID file each, the
 * environment on the command), the health gates, the router, a smoke
 * test, how to stop, and the timeout variables with what they trade off.
 * Each host's block opens under "### Node N", the lead-in the Markdown
 * reader takes for the machine (src/io/markdown.c), and holds the plain
 * assignments the launch script has (PDWIZ_GPUS_PER_HOST, the facts,
 * PDWIZ_NODE_HOST), so `pdwiz check RUNBOOK.md` reads the deployment.
 */
#define _POSIX_C_SOURCE 200809L
#include "emit/emit.h"
#include "emit/emit_int.h"
#include "core/fit_facts.h"
#include "core/util.h"
#include "deploy/layout.h"
#include "io/shell.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct {
	const char	*name, *role, *def, *trade;
} timeouts[] = {
	{ "SGLANG_DISAGGREGATION_BOOTSTRAP_TIMEOUT", "prefill", "300",
	  "seconds a prefill waits for the decode to send the KV indices of a "
	  "request. Longer tolerates slow or overloaded decodes (SGLang "
	  "suggests 600 when a larger mean TTFT is acceptable); shorter frees "
	  "stuck requests sooner." },
	{ "SGLANG_DISAGGREGATION_WAITING_TIMEOUT", "decode", "300",
	  "seconds a decode waits for the KV transfer-done signal after "
	  "bootstrapping. Longer survives slow transfers (600 is SGLang's "
	  "suggestion); shorter fails requests fast when a prefill is gone." },
	{ "SGLANG_DISAGGREGATION_HEARTBEAT_INTERVAL", "decode", "5.0",
	  "seconds between the decode's health probes of each prefill. Lower "
	  "detects a dead prefill sooner at the cost of more probe traffic." },
	{ "SGLANG_DISAGGREGATION_HEARTBEAT_MAX_FAILURE", "decode", "2",
	  "failed probes before a prefill is considered lost ('Lost connection "
	  "with prefill instance'). Higher rides out short network blips; lower "
	  "reacts faster." },
	{ "SGLANG_DISAGGREGATION_QUEUE_SIZE", "prefill", "4",
	  "parallel KV transfer queues on the prefill. More queues raise "
	  "transfer concurrency and memory for buffers." },
	{ NULL, NULL, NULL, NULL }
};

/* The hosts of the plan in order of first use (servers, then the router);
 * pointers into the plan. */
struct hosts {
	const char	**h;
	size_t		  n;
};

static void
hosts_of(const struct plan *p, struct hosts *hs)
{
	size_t	i, k;

	hs->h = xcalloc(p->n + 1, sizeof *hs->h);
	hs->n = 0;
	for (i = 0; i < p->n; i++) {
		if (launch_host_dropped(&p->l[i]))
			continue;
		for (k = 0; k < hs->n; k++)
			if (strcmp(hs->h[k], p->l[i].host) == 0)
				break;
		if (k == hs->n)
			hs->h[hs->n++] = p->l[i].host;
	}
}

static size_t
host_index(const struct hosts *hs, const char *h)
{
	size_t	k;

	for (k = 0; k < hs->n; k++)
		if (strcmp(hs->h[k], h) == 0)
			return k;
	return 0;
}

/* prefill-0-0, decode-1-0, router: the name of a launch, its log and PID
 * files. */
static void
node_id(struct buf *b, const struct launch *l)
{
	if (l->role == ROLE_ROUTER)
		buf_puts(b, "router");
	else
		buf_printf(b, "%s-%d-%d", role_name(l->role), l->instance,
		    l->node_rank);
}

/* The GPUs a server uses: "0-3 (4 GPUs)", "2", or "-" for the router. */
static void
gpus_of(struct buf *b, const struct layout *lay, const struct launch *l)
{
	const struct lay_server	*s = l->role == ROLE_ROUTER ? NULL :
	    layout_server(lay, l->role, l->instance, l->node_rank);

	if (s == NULL || s->ngpus < 1) {
		buf_puts(b, "-");
		return;
	}
	if (s->base_gpu < 0)
		buf_printf(b, "%d", s->ngpus);
	else if (s->gpu_span <= 1 || s->ngpus == 1)
		buf_printf(b, "%d", s->base_gpu);
	else
		buf_printf(b, "%d-%d", s->base_gpu, s->base_gpu +
		    s->gpu_span - 1);
	if (s->ngpus > 1 || s->base_gpu >= 0)
		buf_printf(b, " (%d GPU%s)", s->ngpus, s->ngpus == 1 ? "" :
		    "s");
}

/* The ports a launch listens on, "30000, 8998". */
static void
ports_of(struct buf *b, const struct deployment *d, const struct launch *l)
{
	size_t	k;
	size_t	len = b->len;

	for (k = l->argstart; k + 1 < l->argc; k++)
		if (strcmp(l->argv[k], "--port") == 0 ||
		    strcmp(l->argv[k], "--disaggregation-bootstrap-port") == 0 ||
		    (strcmp(l->argv[k], "--dist-init-addr") == 0 &&
		    l->node_rank == 0))
			buf_printf(b, "%s%s", b->len > len ? ", " : "",
			    strrchr(l->argv[k + 1], ':') ?
			    strrchr(l->argv[k + 1], ':') + 1 : l->argv[k + 1]);
	if (l->role == ROLE_PREFILL && l->node_rank == 0 &&
	    d->role[ROLE_PREFILL].bootstrap_port < 0)
		buf_printf(b, "%s8998", b->len > len ? ", " : "");
}

/* The machine's heading: "### Node 2: `10.0.0.2`". The Markdown reader
 * takes the one node number a block's lead-in names for the machine it
 * runs on, so a host whose own name holds another node number ("node3"
 * as Node 2) is left out of the heading (the table of section 1 pairs
 * them). */
static void
host_heading(struct buf *b, const struct hosts *hs, size_t k,
    const char *what)
{
	const char	*h = hs->h[k], *p;
	bool		 clash = false;

	for (p = h; *p != '\0'; p++)
		if (strncasecmp(p, "node", 4) == 0) {
			const char	*q = p + 4;

			if (*q == '-' || *q == '_' || *q == ' ')
				q++;
			if (*q >= '0' && *q <= '9' && atoi(q) != (int)k + 1)
				clash = true;
		}
	buf_printf(b, "### Node %zu", k + 1);
	if (!clash) {
		buf_puts(b, ": ");
		md_code(b, h, false);
	}
	buf_printf(b, "%s\n\n", what);
}

/* Section 1: the hosts, what runs where, GPUs and ports to check. */
static void
preflight(struct buf *b, const struct deployment *d, const struct plan *p,
    const struct layout *lay, const struct hosts *hs, bool nixl)
{
	size_t	i;

	buf_puts(b, "## 1. Hosts and pre-flight checks\n\n");
	buf_puts(b, "| node | host | runs | GPUs (CUDA device numbers) | "
	    "ports that must be free |\n|---|---|---|---|---|\n");
	for (i = 0; i < p->n; i++) {
		const struct launch	*l = &p->l[i];
		struct buf		 c = { 0 };

		if (launch_host_dropped(l))
			buf_puts(b, "| - | (machine not stated) | ");
		else {
			buf_printf(b, "| Node %zu | ",
			    host_index(hs, l->host) + 1);
			md_code(b, l->host, true);
			buf_puts(b, " | ");
		}
		node_id(b, l);
		buf_puts(b, " | ");
		gpus_of(&c, lay, l);
		buf_puts(b, c.s);
		buf_puts(b, " | ");
		c.len = 0;
		c.s[0] = '\0';
		ports_of(&c, d, l);
		buf_puts(b, c.s != NULL ? c.s : "");
		buf_puts(b, " |\n");
		buf_free(&c);
	}
	buf_puts(b, "\nOn each host:\n\n```sh\nnvidia-smi -L            "
	    "# the GPUs listed above are present and idle\n"
	    "ss -ltn                  # none of the ports above is in use\n");
	if (nixl)
		buf_puts(b, "ucx_info -d | grep -i 'Transport\\|Device'   # UCX "
		    "sees the RDMA NIC; set UCX_NET_DEVICES to it (keep tcp)\n");
	else
		buf_puts(b, "ibv_devices              # the RDMA devices "
		    "(--disaggregation-ib-device) exist\nibv_devinfo | grep "
		    "state  # and are PORT_ACTIVE\n");
	buf_puts(b, "ulimit -l                # unlimited (RDMA memory "
	    "registration)\n```\n\n");
	buf_puts(b, "Between hosts: the decode must reach each prefill's "
	    "bootstrap port and HTTP port, and the router every server's HTTP "
	    "port (`curl http://HOST:PORT/health` once they run).\n\n");
}

/* One launch in the background: nohup, its log and PID file in logs/. */
static void
background(struct buf *b, const struct catalog *cat, const struct plan *p,
    const struct deployment *d, const struct layout *lay,
    const struct launch *l)
{
	struct buf	id = { 0 }, g = { 0 }, pt = { 0 };
	char		*tail;

	node_id(&id, l);
	gpus_of(&g, lay, l);
	ports_of(&pt, d, l);
	buf_puts(b, "# ");
	if (l->role == ROLE_ROUTER)
		buf_puts(b, "the router");
	else
		buf_printf(b, "%s instance %d, node rank %d: GPUs %s",
		    role_name(l->role), l->instance, l->node_rank, g.s);
	if (pt.s != NULL)
		buf_printf(b, ", port%s %s", strchr(pt.s, ',') ? "s" : "",
		    pt.s);
	buf_puts(b, "\n");
	tail = xasprintf(" \\\n\t>logs/%s.log 2>&1 &\necho $! >logs/%s.pid",
	    id.s, id.s);
	shell_launch(b, cat, p, l, "nohup", tail);
	free(tail);
	buf_free(&id);
	buf_free(&g);
	buf_free(&pt);
}

/* The head of each host's block: the log directory and the plain
 * assignments pdwiz check reads (the machine's GPUs, the facts). */
static void
block_head(struct buf *b, const struct catalog *cat,
    const struct deployment *d)
{
	buf_puts(b, "```bash\nmkdir -p logs\n");
	shell_facts(b, cat, d, true, true);
}

/* Section 2: each host's servers, side by side in the background. */
static void
servers(struct buf *b, const struct catalog *cat, const struct deployment *d,
    const struct plan *p, const struct layout *lay, const struct hosts *hs)
{
	size_t	k, i;
	bool	multi = false;

	for (i = 0; i < p->n; i++)
		if (p->l[i].node_rank > 0)
			multi = true;
	buf_puts(b, "## 2. Start the servers\n\nOn each host, in the "
	    "directory you want the logs in, paste its block into a shell (or "
	    "save it as a file and run it with bash). Each server starts in "
	    "the background with `nohup`, on the GPUs its `--base-gpu-id` and "
	    "parallel sizes give it, its ports and its environment on the "
	    "command; its output goes to `logs/NAME.log`, its process id to "
	    "`logs/NAME.pid`.");
	if (multi)
		buf_puts(b, " An instance over several hosts starts on every "
		    "one of them; rank 0 first.");
	buf_puts(b, " To watch one in the foreground instead, run its "
	    "command without `nohup` and the redirection in a window of its "
	    "own (`tmux new-window -n NAME`), one window per server.\n\n");
	for (k = 0; k < hs->n; k++) {
		bool	any = false;

		for (i = 0; i < p->n; i++)
			if (p->l[i].role != ROLE_ROUTER &&
			    !launch_host_dropped(&p->l[i]) &&
			    strcmp(p->l[i].host, hs->h[k]) == 0)
				any = true;
		if (!any)
			continue;
		host_heading(b, hs, k, "");
		block_head(b, cat, d);
		for (i = 0; i < p->n; i++)
			if (p->l[i].role != ROLE_ROUTER &&
			    !launch_host_dropped(&p->l[i]) &&
			    strcmp(p->l[i].host, hs->h[k]) == 0)
				background(b, cat, p, d, lay, &p->l[i]);
		buf_puts(b, "```\n\n");
	}
	/* Servers whose machine the source did not state: a block each,
	 * under a heading that names no machine. */
	for (i = 0; i < p->n; i++) {
		if (!launch_host_dropped(&p->l[i]))
			continue;
		buf_puts(b, "### ");
		node_id(b, &p->l[i]);
		buf_puts(b, " (machine not stated)\n\nThe source did not "
		    "say which machine this server runs on, so the checks "
		    "could not place it: choose its machine.\n\n");
		block_head(b, cat, d);
		background(b, cat, p, d, lay, &p->l[i]);
		buf_puts(b, "```\n\n");
	}
}

/* Memory per GPU of each role, when the deployment names its accelerator
 * (model.facts.gpu): the estimate pdwiz check reports as fit-estimate. */
static void
memory(struct buf *b, const struct catalog *cat, const struct plan *p)
{
	int	o = catalog_find(cat, "fit_summary"), r;
	size_t	i;
	bool	head = false;

	for (r = ROLE_PREFILL; r <= ROLE_DECODE && o >= 0; r++) {
		for (i = 0; i < p->n; i++) {
			struct config	c = { 0 };

			if ((int)p->l[i].role != r || p->l[i].instance != 0 ||
			    p->l[i].node_rank != 0)
				continue;
			config_copy(&c, &p->l[i].cfg);
			fit_facts(cat, &c);
			if (c.s[o].v.t == V_STR) {
				if (!head)
					buf_puts(b, "Memory per GPU (pdwiz's "
					    "estimate; `pdwiz check` warns when "
					    "it does not fit):\n\n");
				head = true;
				buf_printf(b, "- %s: ", role_name((enum role)r));
				one_line(b, c.s[o].v.u.s);
				buf_putc(b, '\n');
			}
			config_free(&c);
			break;
		}
	}
	if (head)
		buf_putc(b, '\n');
}

/* Section 3: each instance's rank 0 healthy, then the router. */
static void
start_router(struct buf *b, const struct catalog *cat,
    const struct deployment *d, const struct plan *p,
    const struct layout *lay, const struct hosts *hs)
{
	size_t	i;

	buf_puts(b, "## 3. Wait until every server is healthy\n\nFrom any "
	    "host that reaches them (a server loads its weights first; this "
	    "takes minutes). A server that does not come up says why in its "
	    "log (`tail -n 50 logs/NAME.log` on its host).\n\n```sh\n");
	for (i = 0; i < p->n; i++) {
		const struct launch	*l = &p->l[i];
		char			*u;

		if (l->role == ROLE_ROUTER || l->node_rank != 0)
			continue;
		u = url_for(l->host, role_port(&d->role[l->role],
		    d->role[l->role].port, l->instance));
		buf_puts(b, "until curl -sf ");
		sh_word_line(b, u);
		buf_puts(b, "/health >/dev/null; do sleep 5; done\n");
		free(u);
	}
	buf_puts(b, "```\n\n## 4. Start the router\n\n"
	    "Then the router, which checks its workers for up to "
	    "`--worker-startup-timeout-secs` (600 s by default).\n\n");
	for (i = 0; i < p->n; i++) {
		const struct launch	*l = &p->l[i];
		char			*u;

		if (l->role != ROLE_ROUTER)
			continue;
		host_heading(b, hs, host_index(hs, l->host), ", the router");
		block_head(b, cat, d);
		background(b, cat, p, d, lay, l);
		u = url_for(l->host, d->role[ROLE_ROUTER].port);
		buf_puts(b, "until curl -sf ");
		sh_word_line(b, u);
		buf_puts(b, "/health >/dev/null; do sleep 5; done\n```\n\n");
		free(u);
	}
}

/* Section 5: one generate request through the router. */
static void
smoke_test(struct buf *b, const struct deployment *d, const struct plan *p)
{
	const struct role_spec	*rr = &d->role[ROLE_ROUTER];
	const char		*h = rr->nhosts ? rr->hosts[0] : "127.0.0.1";
	char			*u, *q;
	size_t			 i;

	for (i = 0; i < p->n; i++)
		if (p->l[i].role == ROLE_ROUTER)
			h = p->l[i].host;
	if (!rr->enabled || rr->port <= 0) {
		/* No router in the deployment (missing.router): nothing of
		 * this file to send the request to. */
		buf_puts(b, "## 5. Smoke test through the router\n\nThis "
		    "deployment has no router (its source ran none), so there "
		    "is no address to test here: send one `/generate` request "
		    "through the router you put in front of these servers.\n\n");
		return;
	}
	u = url_for(h, rr->port);
	buf_puts(b, "## 5. Smoke test through the router\n\n```sh\n");
	buf_puts(b, "curl -s ");
	sh_word_line(b, u);
	buf_puts(b, "/generate -H 'Content-Type: application/json' -d ");
	q = sh_quote("{\"text\": \"The capital of France is\", "
	    "\"sampling_params\": {\"max_new_tokens\": 16, "
	    "\"temperature\": 0}}");
	buf_puts(b, q);
	free(q);
	buf_puts(b, "\n```\n\nExpect a JSON answer with generated "
	    "text. A hang here usually means the decode cannot reach the "
	    "prefill's bootstrap port, or the KV transfer (RDMA) path is "
	    "broken: check the prefill and decode logs.\n\n");
	free(u);
}

/* Section 6: stop, the router first. */
static void
stop(struct buf *b, const struct plan *p, const struct hosts *hs)
{
	size_t	i;

	(void)hs;
	buf_puts(b, "## 6. Stop\n\nOn each host, in the same directory: the "
	    "router first (on its host), then the servers. SGLang takes its "
	    "scheduler and detokenizer processes down with it.\n\n```sh\n");
	for (i = 0; i < p->n; i++)
		if (p->l[i].role == ROLE_ROUTER)
			buf_puts(b, "[ -f logs/router.pid ] && kill "
			    "\"$(cat logs/router.pid)\"\n");
	buf_puts(b, "for f in logs/*.pid; do kill \"$(cat \"$f\")\" "
	    "2>/dev/null; rm -f \"$f\"; done\n```\n\n");
}

/* Section 7: the PD timeouts, their defaults and this deployment's value. */
static void
timeout_table(struct buf *b, const struct catalog *cat,
    const struct deployment *d)
{
	size_t	i;

	buf_puts(b, "## 7. Timeouts and what they trade off\n\n"
	    "| variable | role | default | set here | trade-off |\n"
	    "|---|---|---|---|---|\n");
	for (i = 0; timeouts[i].name != NULL; i++) {
		const char	*v = deployment_get(cat, d,
		    role_parse(timeouts[i].role) == ROLE_PREFILL ? ROLE_PREFILL :
		    ROLE_DECODE, timeouts[i].name);

		buf_printf(b, "| `%s` | %s | %s | ", timeouts[i].name,
		    timeouts[i].role, timeouts[i].def);
		if (v != NULL)
			md_code(b, v, true);
		else
			buf_puts(b, "-");
		buf_printf(b, " | %s |\n", timeouts[i].trade);
	}
	buf_puts(b, "\nThe router has its own: `--worker-startup-timeout-secs` "
	    "(wait for workers at start), `--request-timeout-secs`, and the "
	    "circuit breaker (`--disable-circuit-breaker`, "
	    "`--cb-failure-threshold`): after repeated failures a worker is "
	    "taken out of rotation (\"all circuits open\").\n");
}

char *
emit_runbook(const struct catalog *cat, const struct deployment *d,
    bool failing)
{
	struct buf	 b = { 0 };
	struct plan	 p;
	struct layout	 lay;
	struct hosts	 hs;
	const char	*backend, *gpu = NULL;
	size_t		 i;

	deployment_plan(cat, d, &p, NULL);
	deployment_layout(cat, d, &lay);
	hosts_of(&p, &hs);
	backend = deployment_get(cat, d, ROLE_PREFILL,
	    "disaggregation_transfer_backend");
	if (backend == NULL)
		backend = "mooncake";
	for (i = 0; i < d->nfacts; i++)
		if (strcmp(d->facts[i].name, "gpu") == 0)
			gpu = d->facts[i].value;
	buf_puts(&b, "# Runbook: ");
	one_line(&b, d->name ? d->name : "");
	buf_puts(&b, "\n\nGenerated by pdwiz. Model ");
	md_code(&b, d->model ? d->model : "", false);
	buf_puts(&b, ", transfer backend ");
	one_line(&b, backend);
	buf_printf(&b, "; %zu host%s", hs.n, hs.n == 1 ? "" : "s");
	if (lay.gpus_per_host > 0)
		buf_printf(&b, " of %d GPUs", lay.gpus_per_host);
	if (gpu != NULL) {
		buf_puts(&b, " (");
		one_line(&b, gpu);
		buf_puts(&b, ")");
	}
	buf_puts(&b, ". Every command is in this file: each host's in its "
	    "own section, to run on that host in the order of the sections. "
	    "`pdwiz check` reads this file as the deployment.\n\n");
	if (failing)
		buf_printf(&b, "> **WARNING: %s**\n\n", EMIT_FAILING_TEXT);
	preflight(&b, d, &p, &lay, &hs, strcmp(backend, "nixl") == 0);
	memory(&b, cat, &p);
	servers(&b, cat, d, &p, &lay, &hs);
	start_router(&b, cat, d, &p, &lay, &hs);
	smoke_test(&b, d, &p);
	stop(&b, &p, &hs);
	timeout_table(&b, cat, d);
	free(hs.h);
	layout_free(&lay);
	plan_free(&p);
	return buf_steal(&b);
}
