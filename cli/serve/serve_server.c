/* golgen serve: HTTP and WebSocket by libwebsockets (serve_server.h). */
#include "serve_server.h"

#include <libwebsockets.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "cli_args.h"
#include "serve_msg.h"
#include "serve_page.h"

#define SV_MAX_SAVE (64L << 20) /* RLE or macrocell a page may download */
#define SV_MAX_CELLS (1LL << 32) /* a bounded grid a page may ask for */

/* A text message waiting to go to one page: "KIND\nbody". */
typedef struct sv_out {
    struct sv_out *next;
    size_t len;
    unsigned char data[]; /* LWS_PRE bytes, then the message */
} sv_out;

typedef struct sv_session {
    bool ws;
    size_t sent;        /* HTTP: page bytes sent */
    int slot;           /* its view in the simulation (sv_sim_view_new) */
    sv_out *head, *tail;
    char *rx;           /* a message coming in pieces */
    size_t rx_len;
    bool rx_bad;        /* too big or binary: refused at its end */
    uint64_t note_seen;
    unsigned char *frame; /* LWS_PRE + header + blocks */
    size_t frame_cap;
    unsigned char *bin;   /* a picture to send (LWS_PRE + bytes) */
    size_t bin_len;
} sv_session;

typedef struct sv_server {
    sv_sim *sim;
    const sv_server_opts *o;
} sv_server;

static void queue(sv_session *s, const char *kind, const char *body,
                  size_t len)
{
    size_t k = strlen(kind);
    sv_out *m = malloc(sizeof *m + LWS_PRE + k + 1 + len);
    if (!m)
        return; /* dropped: the page sees no answer */
    memcpy(m->data + LWS_PRE, kind, k);
    m->data[LWS_PRE + k] = '\n';
    memcpy(m->data + LWS_PRE + k + 1, body, len);
    m->len = k + 1 + len;
    m->next = NULL;
    if (s->tail)
        s->tail->next = m;
    else
        s->head = m;
    s->tail = m;
}

static void error_to(sv_session *s, const char *msg)
{
    queue(s, "error", msg, strlen(msg));
}

/* A load or rule change refused: a grid past the page's limit is told
 * serve's way round it, in place of the library's name for the limit. */
static void load_error_to(sv_session *s, const char *msg)
{
    static const char tail[] = GOLGEN_WORLD_PAST_MAX_CELLS;
    size_t n = strlen(msg), k = sizeof tail - 1;
    if (n < k || strcmp(msg + n - k, tail))
        return error_to(s, msg);
    char says[640];
    snprintf(says, sizeof says, "%.*s(start golgen serve with it: its "
             "command line has no limit)", (int)(n - k), msg);
    error_to(s, says);
}

/* A rule message: the same cells under the new rule. */
static void change_rule(sv_server *srv, sv_session *s, const sv_msg *m)
{
    sv_sim *sim = srv->sim;
    char text[SV_MAX_RULE + 1];
    memcpy(text, m->text, m->text_len);
    text[m->text_len] = 0;
    golgen_world_rule *rule;
    char err[512];
    if (golgen_world_rule_parse(text, srv->o->pattern, &rule, err,
                                sizeof err))
        return error_to(s, err);
    golgen_world *w;
    pthread_mutex_lock(&sim->lock);
    int bad = golgen_world_with_rule(sim->world, rule, SV_MAX_CELLS, &w, err,
                                     sizeof err);
    if (!bad)
        sv_sim_replace(sim, w);
    pthread_mutex_unlock(&sim->lock);
    golgen_world_rule_free(rule);
    if (bad)
        load_error_to(s, err);
}

static void load(sv_server *srv, sv_session *s, const sv_msg *m)
{
    sv_sim *sim = srv->sim;
    char rule[256];
    pthread_mutex_lock(&sim->lock);
    golgen_world_rule_name(sim->world, rule, sizeof rule);
    pthread_mutex_unlock(&sim->lock);
    golgen_world *w;
    char err[512];
    golgen_world_load_opts o = {.fallback = rule, .near = srv->o->pattern,
                                .name = "the pasted pattern",
                                .max_cells = SV_MAX_CELLS};
    if (golgen_world_parse(m->text, m->text_len, &o, &w, err, sizeof err))
        return load_error_to(s, err);
    pthread_mutex_lock(&sim->lock);
    sv_sim_replace(sim, w);
    pthread_mutex_unlock(&sim->lock);
}

/* A paste: the pattern's cells laid over the running universe. */
static void paste(sv_sim *sim, sv_session *s, const sv_msg *m)
{
    char err[512];
    pthread_mutex_lock(&sim->lock);
    int bad = golgen_world_paste(sim->world, m->text, m->text_len, m->x,
                                 m->y, err, sizeof err);
    sim->edits++;
    sv_sim_wake(sim);
    pthread_mutex_unlock(&sim->lock);
    if (bad)
        error_to(s, err);
}

/* A random soup on a torus under the rule, as bounded as other grids a
 * page makes. */
static void soup(sv_sim *sim, sv_session *s, const sv_msg *m)
{
    char err[512];
    if ((double)m->x * (double)m->y > (double)SV_MAX_CELLS)
        return error_to(s, "a soup of more than 2^32 cells: start golgen "
                           "serve --rule with a bigger torus");
    golgen_world *w;
    pthread_mutex_lock(&sim->lock);
    golgen_world_rule *rule;
    int bad = golgen_world_get_rule(sim->world, &rule);
    pthread_mutex_unlock(&sim->lock);
    if (bad)
        return error_to(s, "out of memory");
    /* made while the simulation goes on (2^32 cells at a density other
     * than 1/2 take seconds) */
    bad = golgen_world_soup(rule, m->x, m->y, (int)m->n, (uint64_t)m->seed,
                            &w, err, sizeof err);
    golgen_world_rule_free(rule);
    if (bad)
        return error_to(s, err);
    pthread_mutex_lock(&sim->lock);
    sv_sim_replace(sim, w);
    pthread_mutex_unlock(&sim->lock);
}

/* The picture as a binary message: "GGP1", width, height, colours (u32
 * each), 768 bytes of palette, then width x height palette indices; the
 * page makes the PNG. */
static void picture(sv_sim *sim, sv_session *s)
{
    golgen_image *im;
    char err[512];
    pthread_mutex_lock(&sim->lock);
    int bad = golgen_world_image(sim->world, &im, err, sizeof err);
    pthread_mutex_unlock(&sim->lock);
    if (bad)
        return error_to(s, err);
    size_t n = 16 + 768 + (size_t)(im->width * im->height);
    free(s->bin);
    s->bin = malloc(LWS_PRE + n);
    if (!s->bin) {
        golgen_image_free(im);
        return error_to(s, "out of memory for the picture");
    }
    unsigned char *p = s->bin + LWS_PRE;
    memcpy(p, "GGP1", 4);
    uint32_t v[3] = {(uint32_t)im->width, (uint32_t)im->height,
                     (uint32_t)im->colours};
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 4; k++)
            p[4 + 4 * i + k] = (unsigned char)(v[i] >> (8 * k));
    memcpy(p + 16, im->palette, 768);
    memcpy(p + 16 + 768, im->index, (size_t)(im->width * im->height));
    s->bin_len = n;
    golgen_image_free(im);
}

static void save(sv_sim *sim, sv_session *s, sv_format format)
{
    if (format == SV_PNG)
        return picture(sim, s);
    char *text = NULL;
    size_t len = 0;
    char err[512];
    pthread_mutex_lock(&sim->lock);
    int bad = golgen_world_format(sim->world, format == SV_MC ? "mc" : "rle",
                                  &text, &len, err, sizeof err);
    pthread_mutex_unlock(&sim->lock);
    if (bad)
        error_to(s, err);
    else if (len > SV_MAX_SAVE)
        error_to(s, "the pattern's text is over 64 MiB: save it with "
                    "golgen run -o instead");
    else
        queue(s, format == SV_MC ? "mc" : "rle", text, len);
    golgen_free(text);
}

/* A rule table's @COLORS for the page: "S R G B" a line. */
static void colours(sv_sim *sim, sv_session *s)
{
    char buf[256 * 16 + 1];
    size_t n = 0;
    uint8_t rgb[256][3];
    pthread_mutex_lock(&sim->lock);
    bool t = golgen_world_colours(sim->world, rgb);
    int states = golgen_world_states(sim->world);
    for (int i = 0; t && i < states; i++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%d %d %d %d\n", i,
                              rgb[i][0], rgb[i][1], rgb[i][2]);
    pthread_mutex_unlock(&sim->lock);
    queue(s, "colours", buf, n);
}

static void fit(sv_sim *sim, sv_session *s)
{
    int64_t x, y, w, h;
    pthread_mutex_lock(&sim->lock);
    if (!golgen_world_bbox(sim->world, &x, &y, &w, &h))
        golgen_world_extent(sim->world, &x, &y, &w, &h);
    pthread_mutex_unlock(&sim->lock);
    char buf[100];
    int n = snprintf(buf, sizeof buf, "%lld %lld %lld %lld", (long long)x,
                     (long long)y, (long long)w, (long long)h);
    queue(s, "fit", buf, (size_t)n);
}

/* What one whole message does. */
static void handle(sv_server *srv, sv_session *s, const char *buf,
                   size_t len)
{
    sv_msg m;
    char why[300];
    if (sv_msg_parse(buf, len, &m, why, sizeof why))
        return error_to(s, why);
    sv_sim *sim = srv->sim;
    char err[512];
    switch (m.kind) {
    case SV_VIEW:
        sv_sim_view_ask(sim, s->slot, m.x, m.y, m.cols, m.rows, m.level);
        return;
    case SV_RULE: return change_rule(srv, s, &m);
    case SV_LOAD: return load(srv, s, &m);
    case SV_PASTE: return paste(sim, s, &m);
    case SV_SOUP: return soup(sim, s, &m);
    case SV_SAVE: return save(sim, s, m.format);
    case SV_FIT: return fit(sim, s);
    case SV_COLOURS: return colours(sim, s);
    default: break;
    }
    pthread_mutex_lock(&sim->lock);
    int bad = 0;
    switch (m.kind) {
    case SV_RUN: sim->running = true; break;
    case SV_PAUSE: sim->running = false, sim->steps_left = 0; break;
    case SV_STEP: sim->running = false, sim->steps_left = m.n; break;
    case SV_SPEED: sim->delay_ms = (int)m.n; break;
    case SV_Z:
        bad = golgen_world_set_z(sim->world,
                                 m.n == SV_Z_SUM ? GOLGEN_WORLD_Z_SUM : m.n,
                                 err, sizeof err);
        sim->edits++;
        break;
    case SV_SET:
        bad = golgen_world_set(sim->world, m.x, m.y, (int)m.n, err,
                               sizeof err);
        sim->edits++;
        break;
    case SV_CLEAR:
        golgen_world_clear(sim->world);
        sim->running = false, sim->steps_left = 0;
        sim->edits++;
        break;
    default: break;
    }
    pthread_cond_signal(&sim->wake);
    pthread_mutex_unlock(&sim->lock);
    if (bad)
        error_to(s, err);
}

/* The frame for s, if one is ready or due, into s->frame; its length, or
 * 0 (then a watched frame due later wakes wsi at its time). The
 * generation reached now goes into the header (serve_sim.c). */
static size_t take_frame(sv_sim *sim, struct lws *wsi, sv_session *s)
{
    double wait;
    pthread_mutex_lock(&sim->vlock);
    size_t n = sv_sim_view_take(sim, s->slot, &s->frame, &s->frame_cap,
                                &wait);
    if (!n && wait > 0)
        lws_set_timer_usecs(wsi, (lws_usec_t)(wait * 1e6) + 1);
    if (sim->note_seq != s->note_seen) {
        s->note_seen = sim->note_seq;
        error_to(s, sim->note);
    }
    pthread_mutex_unlock(&sim->vlock);
    if (n) {
        uint64_t g = (uint64_t)__atomic_load_n(&sim->live_gen,
                                               __ATOMIC_ACQUIRE);
        for (int i = 0; i < 8; i++)
            s->frame[LWS_PRE + 208 + i] = (unsigned char)(g >> (8 * i));
    }
    return n;
}

/* The next message, picture or frame to s; -1 closes it. */
static int writeable(sv_server *srv, struct lws *wsi, sv_session *s)
{
    sv_out *m = s->head;
    if (m) {
        s->head = m->next;
        if (!s->head)
            s->tail = NULL;
        int w = lws_write(wsi, m->data + LWS_PRE, m->len, LWS_WRITE_TEXT);
        free(m);
        if (w < 0)
            return -1;
        lws_callback_on_writable(wsi);
        return 0;
    }
    if (s->bin) {
        int w = lws_write(wsi, s->bin + LWS_PRE, s->bin_len,
                          LWS_WRITE_BINARY);
        free(s->bin);
        s->bin = NULL;
        if (w < (int)s->bin_len)
            return -1;
        lws_callback_on_writable(wsi);
        return 0;
    }
    size_t n = take_frame(srv->sim, wsi, s);
    if (s->head) { /* a note came: it goes first */
        lws_callback_on_writable(wsi);
        if (!n)
            return 0;
    }
    if (n && lws_write(wsi, s->frame + LWS_PRE, n, LWS_WRITE_BINARY) < (int)n)
        return -1;
    return 0;
}

static void receive(sv_server *srv, struct lws *wsi, sv_session *s,
                    const void *in, size_t len)
{
    if (lws_is_first_fragment(wsi)) {
        s->rx_len = 0;
        s->rx_bad = lws_frame_is_binary(wsi);
    }
    if (!s->rx_bad && s->rx_len + len > SV_MAX_MSG) {
        s->rx_bad = true;
        error_to(s, "a message over 1 MiB: refused (paste a smaller "
                    "pattern, or open it with golgen serve FILE)");
    }
    if (!s->rx_bad) {
        if (!s->rx)
            s->rx = malloc(SV_MAX_MSG);
        if (!s->rx) {
            s->rx_bad = true;
            error_to(s, "out of memory for a message");
        } else {
            memcpy(s->rx + s->rx_len, in, len);
            s->rx_len += len;
        }
    }
    if (!lws_is_final_fragment(wsi) || lws_remaining_packet_payload(wsi))
        return;
    if (!s->rx_bad)
        handle(srv, s, s->rx, s->rx_len);
    else if (lws_frame_is_binary(wsi))
        error_to(s, "binary messages are not understood: send text "
                    "commands");
    s->rx_len = 0;
    s->rx_bad = false;
    lws_callback_on_writable(wsi);
}

/* ?token=... as the server was given; true without a token. */
static bool token_ok(sv_server *srv, struct lws *wsi)
{
    if (!srv->o->token)
        return true;
    char buf[128];
    const char *v = lws_get_urlarg_by_name(wsi, "token=", buf, sizeof buf);
    if (!v)
        v = lws_get_urlarg_by_name(wsi, "token", buf, sizeof buf);
    return v && !strcmp(v, srv->o->token);
}

/* A socket from another site's page is refused: the Origin header (when
 * a browser sends one) must name this server's Host. */
static bool origin_ok(struct lws *wsi)
{
    char origin[256], host[256];
    if (lws_hdr_copy(wsi, origin, sizeof origin, WSI_TOKEN_ORIGIN) <= 0)
        return true;
    if (lws_hdr_copy(wsi, host, sizeof host, WSI_TOKEN_HOST) <= 0)
        return false;
    const char *o = strstr(origin, "://");
    return o && !strcmp(o + 3, host);
}

static int http(sv_server *srv, struct lws *wsi, sv_session *s,
                const char *uri)
{
    if ((strcmp(uri, "/") && strcmp(uri, "/index.html")) ||
        !token_ok(srv, wsi))
        return lws_return_http_status(wsi, HTTP_STATUS_NOT_FOUND, NULL) ||
               lws_http_transaction_completed(wsi);
    unsigned char buf[LWS_PRE + 1024], *start = buf + LWS_PRE, *p = start,
                                       *end = buf + sizeof buf - 1;
    if (lws_add_http_common_headers(wsi, HTTP_STATUS_OK,
                                    "text/html; charset=utf-8",
                                    gg_serve_page_len, &p, end) ||
        lws_add_http_header_by_name(wsi, (const unsigned char *)"cache-control:",
                                    (const unsigned char *)"no-store", 8, &p,
                                    end) ||
        lws_finalize_write_http_header(wsi, start, &p, end))
        return 1;
    s->sent = 0;
    lws_callback_on_writable(wsi);
    return 0;
}

static int http_body(struct lws *wsi, sv_session *s)
{
    unsigned char buf[LWS_PRE + 4096];
    size_t n = gg_serve_page_len - s->sent;
    if (n > 4096)
        n = 4096;
    memcpy(buf + LWS_PRE, gg_serve_page + s->sent, n);
    s->sent += n;
    bool last = s->sent == gg_serve_page_len;
    if (lws_write(wsi, buf + LWS_PRE, n,
                  last ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) < (int)n)
        return 1;
    if (last)
        return lws_http_transaction_completed(wsi) ? -1 : 0;
    lws_callback_on_writable(wsi);
    return 0;
}

static void drop(sv_session *s)
{
    while (s->head) {
        sv_out *m = s->head;
        s->head = m->next;
        free(m);
    }
    s->tail = NULL;
    free(s->rx);
    free(s->frame);
    free(s->bin);
    s->rx = NULL;
    s->frame = NULL;
    s->bin = NULL;
    s->frame_cap = 0;
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason,
                    void *user, void *in, size_t len)
{
    sv_server *srv = lws_context_user(lws_get_context(wsi));
    sv_session *s = user;
    switch (reason) {
    case LWS_CALLBACK_HTTP: return http(srv, wsi, s, in);
    case LWS_CALLBACK_HTTP_WRITEABLE: return http_body(wsi, s);
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
        return token_ok(srv, wsi) && origin_ok(wsi) ? 0 : 1;
    case LWS_CALLBACK_ESTABLISHED: {
        memset(s, 0, sizeof *s);
        uint64_t owner;
        s->slot = sv_sim_view_new(srv->sim, &owner);
        if (s->slot < 0)
            return -1; /* SV_MAX_VIEWS pages already */
        s->ws = true;
        pthread_mutex_lock(&srv->sim->vlock);
        s->note_seen = srv->sim->note_seq; /* old news */
        pthread_mutex_unlock(&srv->sim->vlock);
        return 0;
    }
    case LWS_CALLBACK_RECEIVE:
        receive(srv, wsi, s, in, len);
        return 0;
    case LWS_CALLBACK_SERVER_WRITEABLE: return writeable(srv, wsi, s);
    case LWS_CALLBACK_TIMER: /* a watched frame fell due (take_frame) */
        lws_callback_on_writable(wsi);
        return 0;
    case LWS_CALLBACK_CLOSED:
        if (s->ws)
            sv_sim_view_free(srv->sim, s->slot);
        s->ws = false;
        drop(s);
        return 0;
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED: /* a new note: tell every page */
        lws_callback_on_writable_all_protocol(lws_get_context(wsi),
                                              lws_get_protocol(wsi));
        return 0;
    default: return lws_callback_http_dummy(wsi, reason, user, in, len);
    }
}

static const struct lws_protocols protocols[] = {
    {"golgen", callback, sizeof(sv_session), 65536, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0}};

static void wake(void *ctx)
{
    lws_cancel_service(ctx);
}

/* SIGINT, SIGTERM, SIGHUP: the loop ends (lws_cancel_service only writes
 * to its pipe). */
static volatile sig_atomic_t stop_signal;
static struct lws_context *volatile signal_ctx;

static void on_signal(int sig)
{
    stop_signal = sig;
    if (signal_ctx)
        lws_cancel_service(signal_ctx);
}

int sv_serve(sv_sim *sim, const sv_server_opts *o, char *err, size_t len)
{
    sv_server srv = {sim, o};
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    lws_set_log_level(LLL_ERR, NULL);
    info.port = o->port;
    info.iface = o->address ? o->address : "127.0.0.1";
    info.protocols = protocols;
    info.user = &srv;
    info.gid = -1;
    info.uid = -1;
    info.options = LWS_SERVER_OPTION_DISABLE_IPV6 * !strchr(info.iface, ':');
    struct lws_context *ctx = lws_create_context(&info);
    if (!ctx) {
        snprintf(err, len, "cannot listen on %s port %d (in use, or not an "
                 "address of this machine?)", info.iface, o->port);
        return -1;
    }
    struct lws_vhost *vh = lws_get_vhost_by_name(ctx, "default");
    int port = vh ? lws_get_vhost_listen_port(vh) : o->port;
    pthread_mutex_lock(&sim->lock);
    sim->notify = wake;
    sim->notify_ctx = ctx;
    sim->pre = LWS_PRE;
    pthread_mutex_unlock(&sim->lock);
    fprintf(stderr, "golgen serve: http://%s:%d/%s%s\n", info.iface, port,
            o->token ? "?token=" : "", o->token ? o->token : "");
    signal_ctx = ctx;
    struct sigaction sa, old[3];
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    const int sigs[3] = {SIGINT, SIGTERM, SIGHUP};
    for (int i = 0; i < 3; i++)
        sigaction(sigs[i], &sa, &old[i]);
    while (!stop_signal)
        if (lws_service(ctx, 0) < 0)
            break;
    for (int i = 0; i < 3; i++)
        sigaction(sigs[i], &old[i], NULL);
    signal_ctx = NULL;
    pthread_mutex_lock(&sim->lock);
    sim->notify = NULL;
    pthread_mutex_unlock(&sim->lock);
    lws_context_destroy(ctx);
    return 0;
}

/* ---- the command's server: its universe, its simulation (serve_args.h) */

static const char default_pattern[] =
    "#N R-pentomino\nx = 3, y = 3, rule = B3/S23\nb2o$2o$bo!\n";

/* Whether address is this machine's loopback (no token needed). */
static bool loopback(const char *a)
{
    return !a || !strcmp(a, "127.0.0.1") || !strcmp(a, "localhost") ||
           !strcmp(a, "::1");
}

static int make_token(char *tok, size_t size)
{
    unsigned char r[16];
    if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r)
        return -1;
    for (size_t i = 0; i < sizeof r && 2 * i + 2 < size; i++)
        snprintf(tok + 2 * i, 3, "%02x", r[i]);
    return 0;
}

int sv_serve_command(const sv_args *a, const gg_config *cfg)
{
    (void)cfg; /* the library reads the environment as main did */
    char err[512];
    if (golgen_world_backend_check(a->backend, err, sizeof err))
        return gg_cli_say("serve", GG_EXIT_USAGE, err);
    char token[40];
    if (!loopback(a->address) && make_token(token, sizeof token))
        return gg_cli_say("serve", GG_EXIT_ENV,
                          "no random bytes for the token");
    /* the pattern (an RLE3 is a 3D grid: Golly's 3D.lua), its rule file
     * looked for beside it first */
    golgen_world *w;
    golgen_world_load_opts lo = {.rule = a->rule};
    int bad;
    if (a->in) {
        bad = golgen_world_read(a->in, &lo, &w, err, sizeof err);
    } else {
        lo.name = "built-in R-pentomino";
        bad = golgen_world_parse(default_pattern, strlen(default_pattern),
                                 &lo, &w, err, sizeof err);
    }
    if (bad)
        return gg_cli_say("serve", GG_EXIT_USAGE, err);
    sv_sim sim;
    memset(&sim, 0, sizeof sim);
    sim.batch_ms = a->batch_ms;
    sim.fps = a->fps;
    if (sv_sim_start(&sim, w, a->backend, err, sizeof err)) {
        golgen_world_free(w);
        return gg_cli_say("serve", GG_EXIT_ENV, err);
    }
    sv_server_opts so = {a->address, a->port,
                         loopback(a->address) ? NULL : token, a->in};
    bad = sv_serve(&sim, &so, err, sizeof err);
    sv_sim_stop(&sim);
    return bad ? gg_cli_say("serve", GG_EXIT_ENV, err) : GG_EXIT_OK;
}
