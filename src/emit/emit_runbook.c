/*
 * emit_runbook.c - a Markdown runbook for the deployment: pre-flight checks,
 * start order with health gates, a smoke test through the router, and the
 * timeout environment variables with what they trade off.
 */
#define _POSIX_C_SOURCE 200809L
#include "emit/emit.h"
#include "emit/emit_int.h"
#include "core/fit_facts.h"
#include "core/util.h"
#include "io/shell.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Section 1: nodes, GPUs and ports to check on every machine. */
static void
preflight(struct buf *b, const struct deployment *d, const struct plan *p,
    bool nixl)
{
	size_t	i, k;

	buf_puts(b, "## 1. Pre-flight checks (on every machine)\n\n");
	buf_puts(b, "| node | host | GPUs | ports that must be free |\n"
	    "|---|---|---|---|\n");
	for (i = 0; i < p->n; i++) {
		const struct launch	*l = &p->l[i];
		struct buf		 ports = { 0 };

		for (k = l->argstart; k + 1 < l->argc; k++)
			if (strcmp(l->argv[k], "--port") == 0 ||
			    strcmp(l->argv[k], "--disaggregation-bootstrap-port")
			    == 0 || (strcmp(l->argv[k], "--dist-init-addr") == 0 &&
			    l->node_rank == 0))
				buf_printf(&ports, "%s%s", ports.len ? ", " : "",
				    strrchr(l->argv[k + 1], ':') ?
				    strrchr(l->argv[k + 1], ':') + 1 :
				    l->argv[k + 1]);
		if (l->role == ROLE_PREFILL && l->node_rank == 0 &&
		    d->role[ROLE_PREFILL].bootstrap_port < 0)
			buf_printf(&ports, "%s8998", ports.len ? ", " : "");
		if (l->role == ROLE_ROUTER)
			buf_printf(b, "| router | ");
		else
			buf_printf(b, "| %s-%d-%d | ", role_name(l->role),
			    l->instance, l->node_rank);
		md_code(b, l->host, true);
		buf_printf(b, " | %d | %s |\n", l->role == ROLE_ROUTER ? 0 :
		    d->role[l->role].gpus_per_node, ports.s ? ports.s : "");
		buf_free(&ports);
	}
	buf_puts(b, "\nOn each machine:\n\n```sh\nnvidia-smi -L            "
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
	buf_puts(b, "Between machines: the decode must reach each prefill's "
	    "bootstrap port and HTTP port, and the router every server's HTTP "
	    "port (`curl http://HOST:PORT/health` once they run).\n\n");
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

/* Section 2: servers first, each rank 0 healthy, then the router. */
static void
start_order(struct buf *b, const struct deployment *d, const struct plan *p)
{
	size_t	i;

	buf_puts(b, "## 2. Start order\n\n1. Start every prefill and decode "
	    "node (`./launch.sh NODE` on its machine); multi-node instances: "
	    "all ranks, rank 0 first.\n2. Wait until each instance's rank-0 "
	    "node answers `/health`:\n\n```sh\n");
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
	buf_puts(b, "```\n\n3. Then start the router (`./launch.sh router`); "
	    "it checks its workers for up to --worker-startup-timeout-secs "
	    "(600 s by default).\n\n");
}

/* Section 3: one generate request through the router. */
static void
smoke_test(struct buf *b, const struct deployment *d)
{
	const struct role_spec	*rr = &d->role[ROLE_ROUTER];
	char			*u = url_for(rr->nhosts ? rr->hosts[0] :
	    "127.0.0.1", rr->port);
	char			*q;

	buf_puts(b, "## 3. Smoke test through the router\n\n```sh\n");
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

/* Section 4: the PD timeouts, their defaults and this deployment's value. */
static void
timeout_table(struct buf *b, const struct catalog *cat,
    const struct deployment *d)
{
	size_t	i;

	buf_puts(b, "## 4. Timeouts and what they trade off\n\n"
	    "| variable | role | default | set here | trade-off |\n"
	    "|---|---|---|---|---|\n");
	for (i = 0; timeouts[i].name != NULL; i++) {
		const char	*v = deployment_get(cat, d,
		    strcmp(timeouts[i].role, "prefill") == 0 ? ROLE_PREFILL :
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
	const char	*backend;

	deployment_plan(cat, d, &p, NULL);
	backend = deployment_get(cat, d, ROLE_PREFILL,
	    "disaggregation_transfer_backend");
	if (backend == NULL)
		backend = "mooncake";
	buf_puts(&b, "# Runbook: ");
	one_line(&b, d->name ? d->name : "");
	buf_puts(&b, "\n\nGenerated by pdwiz. Model ");
	md_code(&b, d->model ? d->model : "", false);
	buf_puts(&b, ", transfer backend ");
	one_line(&b, backend);
	buf_puts(&b, ". Launch commands: `pdwiz emit --format shell` "
	    "(launch.sh).\n\n");
	if (failing)
		buf_printf(&b, "> **WARNING: %s**\n\n", EMIT_FAILING_TEXT);
	preflight(&b, d, &p, strcmp(backend, "nixl") == 0);
	memory(&b, cat, &p);
	start_order(&b, d, &p);
	smoke_test(&b, d);
	timeout_table(&b, cat, d);
	plan_free(&p);
	return buf_steal(&b);
}
