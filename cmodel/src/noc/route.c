/* XY routes on the mesh and the links of a DTE's multicast tree (tx8/cm_noc.h). */
#include "tx8/cm_noc.h"

uint32_t cm_noc_link_count(const tx8_hw_config *cfg) { return cfg->tile_count * CM_NOC_DIRS; }

static uint32_t dist(uint32_t a, uint32_t b) { return a > b ? a - b : b - a; }
static uint32_t max_u32(uint32_t a, uint32_t b) { return a > b ? a : b; }

uint32_t cm_noc_hops(const tx8_hw_config *cfg, uint32_t from, uint32_t to) {
    const uint32_t mx = cfg->mesh_x;
    return dist(from % mx, to % mx) + dist(from / mx, to / mx);
}

uint32_t cm_noc_rect_max_hops(const tx8_hw_config *cfg, uint32_t src, uint32_t x0, uint32_t y0, uint32_t x1,
                              uint32_t y1) {
    const uint32_t sx = src % cfg->mesh_x, sy = src / cfg->mesh_x;
    return max_u32(dist(sx, x0), dist(sx, x1)) + max_u32(dist(sy, y0), dist(sy, y1));
}

typedef struct link_sink {
    uint32_t *links, max, n;
} link_sink;

static void put(link_sink *s, uint32_t x, uint32_t y, uint32_t mesh_x, uint32_t dir) {
    if (s->n < s->max) s->links[s->n] = CM_NOC_LINK(y * mesh_x + x, dir);
    s->n++;
}

/* The links from coordinate `from` towards [lo, hi] along one dimension: +links leave from, ..., hi - 1 (when
 * hi > from), -links leave from, ..., lo + 1 (when lo < from). fixed is the other coordinate; along_x says
 * which dimension moves. */
static void line(link_sink *s, uint32_t mesh_x, int along_x, uint32_t fixed, uint32_t from, uint32_t lo,
                 uint32_t hi) {
    for (uint32_t c = from; c < hi; ++c)
        put(s, along_x ? c : fixed, along_x ? fixed : c, mesh_x, along_x ? CM_NOC_XP : CM_NOC_YP);
    for (uint32_t c = from; c > lo; --c)
        put(s, along_x ? c : fixed, along_x ? fixed : c, mesh_x, along_x ? CM_NOC_XN : CM_NOC_YN);
}

uint32_t cm_noc_tree_links(const tx8_hw_config *cfg, uint32_t src, uint32_t x0, uint32_t y0, uint32_t x1,
                           uint32_t y1, uint32_t *links, uint32_t max_links) {
    const uint32_t mx = cfg->mesh_x, sx = src % mx, sy = src / mx;
    link_sink s = {links, links ? max_links : 0, 0};
    /* X first: the source's row reaches every destination column; columns x0..x1 all lie between the row's
     * ends, so the union of the destinations' X legs is the row from sx to x1 (rightwards) and to x0 (leftwards). */
    line(&s, mx, 1, sy, sx, x0, x1);
    /* Then Y: each destination column carries its tiles' Y legs from row sy, their union the column from sy to
     * y1 and to y0. */
    for (uint32_t x = x0; x <= x1; ++x) line(&s, mx, 0, x, sy, y0, y1);
    return s.n;
}
