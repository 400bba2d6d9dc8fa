/*
 * The NoC of the TX8 mesh: tile coordinates, XY (dimension-ordered) routes and the links a DTE transfer uses.
 *
 * Tiles sit on a mesh_x x mesh_y mesh, tile id = y*mesh_x + x. Every tile has one outgoing link per direction to
 * its neighbour; a link is named by the tile it leaves and its direction:
 *   link id = tile * 4 + dir,  dir CM_NOC_XP (+x) 0, CM_NOC_XN (-x) 1, CM_NOC_YP (+y) 2, CM_NOC_YN (-y) 3,
 * so ids are dense in [0, cm_noc_link_count(cfg)) = [0, 4*tile_count); the ids of links leaving the mesh edge
 * are never used.
 * Routing is XY: a packet first travels along the source's row to the destination's column, then along that
 * column to the destination's row. A multicast to a rectangle of tiles follows the XY multicast tree: the union
 * of the XY routes from the source to each tile of the rectangle, each link once, so data crosses every link of
 * the tree once whatever the number of destinations (routers duplicate it where the routes part).
 */
#ifndef TX8_CM_NOC_H
#define TX8_CM_NOC_H

#include <stdint.h>

#include "tx8/hw_config.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { CM_NOC_XP = 0, CM_NOC_XN = 1, CM_NOC_YP = 2, CM_NOC_YN = 3, CM_NOC_DIRS = 4 };

#define CM_NOC_LINK(tile, dir) ((uint32_t)(tile) * 4u + (uint32_t)(dir))
#define CM_NOC_LINK_TILE(link) ((link) / 4u)
#define CM_NOC_LINK_DIR(link) ((link) % 4u)

/* Link ids are in [0, cm_noc_link_count(cfg)) (= tile_count * 4). */
uint32_t cm_noc_link_count(const tx8_hw_config *cfg);

/* Hops of the XY route from tile `from` to tile `to`: |dx| + |dy| (0 for the same tile). Tiles must exist. */
uint32_t cm_noc_hops(const tx8_hw_config *cfg, uint32_t from, uint32_t to);

/* The largest cm_noc_hops from `src` to a tile of the rectangle [x0, x1] x [y0, y1] (inclusive, inside the mesh,
 * x0 <= x1, y0 <= y1): the depth of the XY multicast tree. */
uint32_t cm_noc_rect_max_hops(const tx8_hw_config *cfg, uint32_t src, uint32_t x0, uint32_t y0, uint32_t x1,
                              uint32_t y1);

/* The directed links of the XY multicast tree from tile `src` to the rectangle [x0, x1] x [y0, y1] (inclusive,
 * inside the mesh, x0 <= x1, y0 <= y1; src may be inside it): along src's row (sy), +x links from column sx up to
 * x1 and -x links from sx down to x0 (those that exist), then in every column x of [x0, x1], +y links from row sy
 * up to y1 and -y links from sy down to y0. Every link once; every destination's XY route lies in the tree and
 * every link of the tree is on some destination's route. A 1x1 rectangle gives exactly the XY route (none when
 * it is src). Order: the row's links (+x nearest src first, then -x), then column by column from x0 (+y, then -y,
 * each nearest the row first). Writes at most max_links ids to links (links may be NULL when max_links is 0) and
 * returns the tree's link count, which may exceed max_links (as snprintf); mesh_x - 1 + mesh_x * (mesh_y - 1)
 * ids always suffice. */
uint32_t cm_noc_tree_links(const tx8_hw_config *cfg, uint32_t src, uint32_t x0, uint32_t y0, uint32_t x1,
                           uint32_t y1, uint32_t *links, uint32_t max_links);

#ifdef __cplusplus
}
#endif

#endif /* TX8_CM_NOC_H */
