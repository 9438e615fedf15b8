/* Double-dummy search for Wiezen's partnerships.
 *
 * Bridge solvers assume two fixed pairs sitting opposite. Wiezen's sides change every deal: an asker and
 * whoever goes with them (side by side or opposite), one player against three, a miserie player who wants
 * no trick. So a side here is any set of seats (`max_mask`, the seats that try to raise the count), and the
 * count is the tricks won by any set of seats (`count_mask`): the declaring side's tricks for most contracts;
 * the miserie player's alone, raised by the three others, for miserie.
 *
 * The search answers yes/no questions ("can the maximising seats reach `target` counted tricks?") with
 * alpha-beta over one card at a time; a transposition table at trick boundaries keeps lower and upper bounds
 * of the tricks still to come. It is a partition search, as in bridge solvers (DDS): every answer comes back
 * with the cards whose owners it depended on ("relevant": a card that won a trick over a lower card of its
 * suit, the runs behind quick tricks, the lowest card of a run of equivalent cards tried once). An entry is
 * filed under the position's shape (every hand's length in every suit, and the leader) and keeps, for each
 * suit, the owners of the cards still out from the top down to the lowest relevant one; it answers every
 * position of that shape whose cards, counted from the top of each suit, have those owners, whoever holds
 * the smaller ones. Cards of one hand with no card still out between them are equivalent, and only one of
 * them is tried. The exact value is found by a few such questions, narrowed by the bounds.
 *
 * Miserie's count (its declarer's fewest tricks, three players ganging up on one) is the costliest question: most
 * of its nodes are positions where the three fail whatever they play, and each of their combinations must be
 * tried. A changed game bounds it from above for a fraction of the cost (wz_miserie_ceiling): the others' cards
 * count only by the gap between the declarer's cards they lie in, so the positions that differ only within gaps
 * share one search.
 *
 * Cards are bits 0..51: suit * 13 + rank - 2, suits C D H S (games/cards.py). Plain C, no Python headers:
 * games/solver/__init__.py loads it with ctypes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __BMI2__
#include <immintrin.h>
#endif

typedef uint64_t u64;

#define SUIT_BITS 0x1FFFULL
#ifndef SHAPE_BITS
#define SHAPE_BITS 20
#endif
#define SHAPE_SIZE (1u << SHAPE_BITS)
#ifndef POOL_BITS
#define POOL_BITS 21
#endif
#define POOL_SIZE (1u << POOL_BITS)
#define SCAN_LIMIT 64 /* entries compared when storing, before a new one is added */

/* One answer for positions of one shape: the owners (2 bits a card, 26 bits a suit, lowest card first) of the
 * cards still out, kept from the top down to a depth per suit, given by `m1`/`m2` (set bits: the owners that
 * must match). */
typedef struct {
    u64 o1, o2, m1, m2;
    int32_t next; /* the next entry of the same shape, or -1 */
    int8_t lb, ub;
    int8_t lead_suit, lead_depth; /* the lead that last decided this position: suit, and place from the top */
} Entry;

/* A slot of the table's index: a shape's record (tag: the leader; `head`: the set of suit sets in use, below),
 * or the head of a list of entries (tag: the leader, a set S of suits, and the owners of the top card of each
 * suit in S, the suits whose owners the list's entries keep from the top down at least one card). */
typedef struct {
    u64 shape; /* 4 bits a hand and suit: its length */
    uint32_t gen;
    int32_t head; /* first entry, or -1; in a shape's record, a bit for each set of suits with a list */
    uint32_t tag;
} Shape;

typedef struct {
    Shape *shapes;
    Entry *pool;
    uint32_t pool_used, shapes_used;
    uint32_t gen;
    int trump;      /* 0..3, or -1 for no trump */
    int max_mask;   /* seats that raise the count */
    int count_mask; /* seats whose tricks count */
    long long nodes;
    long long budget; /* nodes the current question may visit, or -1 for no limit */
    int aborted;      /* the budget ran out: the search unwinds and its answers are unknown */
    int changed;      /* miserie's changed game (wz_miserie_ceiling) instead of the real one */
} Ctx;

static inline int popcount(u64 x) { return __builtin_popcountll(x); }
static inline int lowest(u64 x) { return __builtin_ctzll(x); }
static inline int highest(u64 x) { return 63 - __builtin_clzll(x); }

void *wz_new(void) {
    Ctx *c = calloc(1, sizeof(Ctx));
    if (!c) return NULL;
    c->shapes = calloc(SHAPE_SIZE, sizeof(Shape));
    c->pool = malloc(POOL_SIZE * sizeof(Entry));
    if (!c->shapes || !c->pool) {
        free(c->shapes);
        free(c->pool);
        free(c);
        return NULL;
    }
    c->gen = 1;
    return c;
}

void wz_free(void *p) {
    Ctx *c = p;
    if (!c) return;
    free(c->shapes);
    free(c->pool);
    free(c);
}

/* Empties the table (a new question's sides, or a full table). */
static void tt_clear(Ctx *c) {
    c->gen++;
    if (c->gen == 0) {
        memset(c->shapes, 0, SHAPE_SIZE * sizeof(Shape));
        c->gen = 1;
    }
    c->pool_used = 0;
    c->shapes_used = 0;
}

/* Every hand's length in every suit, 4 bits each. */
static inline u64 shape_of(const u64 hands[4]) {
    u64 shape = 0;
    for (int p = 0; p < 4; p++)
        for (int s = 0; s < 4; s++) shape = (shape << 4) | (u64)popcount(hands[p] & (SUIT_BITS << (13 * s)));
    return shape;
}

/* The owners of the cards `alive` (of one suit), lowest first, 2 bits each: the owner's seat (bit 0 set for
 * seats 1 and 3, bit 1 for seats 2 and 3). With BMI2, two bit gathers and two scatters. */
static inline u64 suit_owners(const u64 hands[4], u64 alive) {
#ifdef __BMI2__
    u64 odd = _pext_u64(hands[1] | hands[3], alive), high = _pext_u64(hands[2] | hands[3], alive);
    return _pdep_u64(odd, 0x5555555555555555ULL) | _pdep_u64(high, 0xAAAAAAAAAAAAAAAAULL);
#else
    u64 key = 0, odd = hands[1] | hands[3], high = hands[2] | hands[3];
    for (int n = 0; alive; n++, alive &= alive - 1) {
        int card = lowest(alive);
        key |= (((odd >> card) & 1) | (((high >> card) & 1) << 1)) << (2 * n);
    }
    return key;
#endif
}

/* Per suit, the owners of the cards still out (suit_owners): suits 0-1 in *o1, 2-3 in *o2. */
static void owners_of(const u64 hands[4], u64 *o1, u64 *o2) {
    u64 all = hands[0] | hands[1] | hands[2] | hands[3];
    u64 owners[4];
    for (int s = 0; s < 4; s++) owners[s] = suit_owners(hands, all & (SUIT_BITS << (13 * s)));
    *o1 = owners[0] | (owners[1] << 26);
    *o2 = owners[2] | (owners[3] << 26);
}

/* The masks of owners that must match for relevant cards `rel`: per suit, down to its lowest relevant card. */
static void masks_of(const u64 hands[4], u64 rel, u64 *m1, u64 *m2) {
    u64 all = hands[0] | hands[1] | hands[2] | hands[3];
    u64 mask[4];
    for (int s = 0; s < 4; s++) {
        u64 r = rel & all & (SUIT_BITS << (13 * s));
        if (!r) {
            mask[s] = 0;
            continue;
        }
        u64 alive = all & (SUIT_BITS << (13 * s));
        int below = popcount(alive & ((1ULL << lowest(r)) - 1));
        mask[s] = ((1ULL << (2 * popcount(alive))) - 1) & ~((1ULL << (2 * below)) - 1);
    }
    *m1 = mask[0] | (mask[1] << 26);
    *m2 = mask[2] | (mask[3] << 26);
}

/* The cards an entry's masks stand for at this position: per suit, the card at its depth. */
static u64 cards_of_masks(const u64 hands[4], u64 m1, u64 m2) {
    u64 all = hands[0] | hands[1] | hands[2] | hands[3];
    u64 rel = 0;
    u64 mask[4] = {m1 & 0x3FFFFFF, m1 >> 26, m2 & 0x3FFFFFF, m2 >> 26};
    for (int s = 0; s < 4; s++) {
        if (!mask[s]) continue;
        u64 alive = all & (SUIT_BITS << (13 * s));
        for (int below = lowest(mask[s]) / 2; below > 0; below--) alive &= alive - 1;
        rel |= 1ULL << lowest(alive);
    }
    return rel;
}

static inline uint32_t shape_slot(u64 shape, uint32_t tag) {
    u64 h = (shape ^ ((u64)tag * 0x9E3779B97F4A7C15ULL)) * 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 31;
    return (uint32_t)(h >> (64 - SHAPE_BITS));
}

/* The slot of (`shape`, `tag`), made when `make` (else NULL when absent); NULL when the index is full. */
static Shape *shape_find(Ctx *c, u64 shape, uint32_t tag, int make) {
    uint32_t slot = shape_slot(shape, tag);
    for (;;) {
        Shape *sh = c->shapes + slot;
        if (sh->gen != c->gen) {
            if (!make || c->shapes_used >= SHAPE_SIZE / 2) return NULL;
            sh->gen = c->gen;
            sh->shape = shape;
            sh->tag = tag;
            sh->head = tag & 1 ? -1 : 0;
            c->shapes_used++;
            return sh;
        }
        if (sh->shape == shape && sh->tag == tag) return sh;
        slot = (slot + 1) & (SHAPE_SIZE - 1);
    }
}

/* Tags: bit 0 set for a list; the leader in bits 1-2; for a list, the suit set in bits 3-6 and the top owners
 * (2 bits a suit, 0 outside the set) in bits 7-14. */
static inline uint32_t list_tag(int leader, int set, u64 tops) {
    return 1u | ((uint32_t)leader << 1) | ((uint32_t)set << 3) | ((uint32_t)tops << 7);
}

/* The owners of each suit's top card still out, 2 bits a suit (0 for a suit that is out). */
static inline u64 tops_of(const u64 hands[4]) {
    u64 all = hands[0] | hands[1] | hands[2] | hands[3], tops = 0;
    for (int s = 0; s < 4; s++) {
        u64 alive = all & (SUIT_BITS << (13 * s));
        if (!alive) continue;
        int top = highest(alive);
        tops |= (u64)(((hands[1] | hands[3]) >> top & 1) | (((hands[2] | hands[3]) >> top & 1) << 1)) << (2 * s);
    }
    return tops;
}

/* The suits whose owners an entry keeps (a depth of one card or more). */
static inline int set_of(u64 m1, u64 m2) {
    return ((m1 & 0x3FFFFFF) != 0) | (((m1 >> 26) != 0) << 1) | (((m2 & 0x3FFFFFF) != 0) << 2) | (((m2 >> 26) != 0) << 3);
}

static inline u64 set_tops(int set, u64 tops) {
    u64 keep = 0;
    for (int s = 0; s < 4; s++)
        if ((set >> s) & 1) keep |= 3ULL << (2 * s);
    return tops & keep;
}

static void tt_store(Ctx *c, u64 shape, int leader, u64 tops, u64 o1, u64 o2, u64 m1, u64 m2, int lb, int ub,
                     int suit, int depth) {
    int set = set_of(m1, m2);
    uint32_t tag = list_tag(leader, set, set_tops(set, tops));
    Shape *rec = shape_find(c, shape, (uint32_t)leader << 1, 1);
    Shape *sh = rec ? shape_find(c, shape, tag, 1) : NULL;
    if (!sh || c->pool_used >= POOL_SIZE) {
        tt_clear(c);
        rec = shape_find(c, shape, (uint32_t)leader << 1, 1);
        sh = shape_find(c, shape, tag, 1);
    }
    rec->head |= 1 << set;
    o1 &= m1;
    o2 &= m2;
    int scan = 0;
    for (int32_t i = sh->head; i >= 0 && scan < SCAN_LIMIT; i = c->pool[i].next, scan++) {
        Entry *e = c->pool + i;
        if (e->m1 == m1 && e->m2 == m2 && e->o1 == o1 && e->o2 == o2) {
            if (lb > e->lb) e->lb = (int8_t)lb;
            if (ub < e->ub) e->ub = (int8_t)ub;
            if (suit >= 0) {
                e->lead_suit = (int8_t)suit;
                e->lead_depth = (int8_t)depth;
            }
            return;
        }
    }
    int32_t i = (int32_t)c->pool_used++;
    Entry *e = c->pool + i;
    e->o1 = o1;
    e->o2 = o2;
    e->m1 = m1;
    e->m2 = m2;
    e->lb = (int8_t)lb;
    e->ub = (int8_t)ub;
    e->lead_suit = (int8_t)suit;
    e->lead_depth = (int8_t)depth;
    e->next = sh->head;
    sh->head = i;
}

/* Looks the position up: 1 or 0 when an entry answers for `target` (its cards in *rel), else -1, with the lead
 * that decided a matching entry before in *hint_suit and *hint_depth. */
static int tt_lookup(Ctx *c, u64 shape, int leader, u64 tops, u64 o1, u64 o2, int target, const u64 hands[4],
                     u64 *rel, int *hint_suit, int *hint_depth) {
    Shape *rec = shape_find(c, shape, (uint32_t)leader << 1, 0);
    if (!rec) return -1;
    for (uint32_t sets = (uint32_t)rec->head; sets; sets &= sets - 1) {
        int set = lowest(sets);
        Shape *sh = shape_find(c, shape, list_tag(leader, set, set_tops(set, tops)), 0);
        if (!sh) continue;
        int32_t prev = -1;
        for (int32_t i = sh->head; i >= 0; prev = i, i = c->pool[i].next) {
            Entry *e = c->pool + i;
            if (((o1 ^ e->o1) & e->m1) || ((o2 ^ e->o2) & e->m2)) continue;
            if (e->lb >= target || e->ub < target) {
                *rel = cards_of_masks(hands, e->m1, e->m2);
                if (prev >= 0) { /* to the front: the entries that answer are scanned first */
                    c->pool[prev].next = e->next;
                    e->next = sh->head;
                    sh->head = i;
                }
                return e->lb >= target;
            }
            if (*hint_suit < 0 && e->lead_suit >= 0) {
                *hint_suit = e->lead_suit;
                *hint_depth = e->lead_depth;
            }
        }
    }
    return -1;
}

/* One representative of each run of equivalent cards in `cards` (one hand's legal cards): a card is
 * dropped when the next card still out above it (in `out`: hands and the current trick) is also in `cards`. */
static u64 representatives(u64 cards, u64 out) {
    u64 keep = 0;
    for (int s = 0; s < 4; s++) {
        u64 mine = cards & (SUIT_BITS << (13 * s));
        if (!mine) continue;
        u64 alive = out & (SUIT_BITS << (13 * s));
        while (mine) {
            int c = highest(mine);
            keep |= 1ULL << c;
            /* skip every card below c that follows it without a gap in `alive` */
            u64 below = alive & ((1ULL << c) - 1);
            mine &= ~(1ULL << c);
            while (below && (mine & (1ULL << highest(below)))) {
                int next = highest(below);
                mine &= ~(1ULL << next);
                below &= ~(1ULL << next);
            }
        }
    }
    return keep;
}

/* After every card was tried in vain: the answer also holds where this player's runs of equivalent cards
 * (tried once) are split by other players' small cards, as long as the relevant cards (`rel`, kept from the
 * top of each suit down to the lowest) do not end inside a run. Where they do, the run's lowest card joins. */
static u64 cut_runs(u64 rel, u64 legal, u64 out) {
    for (int s = 0; s < 4; s++) {
        u64 suit = SUIT_BITS << (13 * s);
        u64 r = rel & suit;
        if (!r) continue;
        int low = lowest(r);
        if (!((legal >> low) & 1)) continue;
        u64 below = out & suit & ((1ULL << low) - 1);
        int bottom = low;
        while (below && ((legal >> highest(below)) & 1)) {
            bottom = highest(below);
            below &= ~(1ULL << bottom);
        }
        rel |= 1ULL << bottom;
    }
    return rel;
}

static inline int beats(int card, int best, int trump) {
    int cs = card / 13, bs = best / 13;
    if (cs == bs) return card > best;
    return cs == trump;
}

typedef struct {
    u64 hands[4];
    int leader;
    int cards[4];  /* the current trick, in play order */
    int best_pos;  /* position in the trick of the winning card so far */
    u64 forced;    /* the card the first lead must be (troel), else 0 */
    int hint;      /* the lead to try first (from the table), else -1 */
    int decided;   /* the card that decided the last trick searched from a boundary, else -1 */
} Node;

static int at_boundary(Ctx *c, Node *n, int target, u64 *rel);

/* A lead's score for a player who wants the trick won by another side (miserie, no trump). The declarer leads
 * first a card some opponent must play over (a safe exit), the highest such card first: it sheds a card that could
 * win later, and keeps the low ones for the leads to come; short of one, it will win the trick (the others duck
 * under), and leads first the card that lies over the most of the others' cards of its suit, the one likeliest to
 * win a trick later anyway. The others lead under every card the declarer holds in the suit, in a suit where the
 * partners still to play can stay below the declarer. */
static int miserie_lead(const Node *n, int player, int card, int count_mask) {
    int s = card / 13, r = card % 13;
    u64 suit = SUIT_BITS << (13 * s), above = suit & ~((2ULL << card) - 1);
    if ((count_mask >> player) & 1) {
        u64 others = 0;
        for (int q = 0; q < 4; q++) {
            if ((count_mask >> q) & 1) continue;
            u64 qs = n->hands[q] & suit;
            if (qs && !(qs & ~above)) return 100 + r; /* q must play over it */
            others |= qs;
        }
        return 50 + popcount(others & ((1ULL << card) - 1));
    }
    int counted = -1;
    for (int q = 0; q < 4; q++)
        if ((count_mask >> q) & 1) counted = q;
    u64 theirs = counted >= 0 ? n->hands[counted] & suit : 0;
    if (!theirs) return 10 - r;
    if (theirs & ~above) return 40 - r; /* the declarer can play under it */
    int under = 1, low = lowest(theirs);
    for (int q = 0; q < 4; q++) {
        if (q == player || q == counted) continue;
        u64 qs = n->hands[q] & suit;
        if (qs && !(qs & ((1ULL << low) - 1))) under = 0;
    }
    return (under ? 100 : 70) - r;
}

/* Order `moves` (at most 13) into `out` for the player at trick position k; returns their number. */
static int order_moves(const Node *n, int k, int player, u64 moves, u64 out_cards, int maximiser, Ctx *c, int *out) {
    int count = 0;
    if (k == 0) {
        /* lead: score each card. A winner (the highest card out in its suit) that no opponent can ruff first; a
         * low card to a partner's winner next; then short of a winner, the lowest cards first. A player who wants
         * another side to win the trick (miserie) scores its leads by miserie_lead instead. */
        int wants_others = ((c->count_mask >> player) & 1) != maximiser;
        u64 trumps = c->trump >= 0 ? SUIT_BITS << (13 * c->trump) : 0;
        int score[13];
        int cards[13], ncards = 0;
        u64 m = moves;
        while (m) {
            int card = lowest(m);
            m &= m - 1;
            int sc;
            if (wants_others) {
                sc = miserie_lead(n, player, card, c->count_mask);
            } else {
                u64 suit = SUIT_BITS << (13 * (card / 13));
                int top = highest(out_cards & suit);
                int top_holder = 0;
                while (!((n->hands[top_holder] >> top) & 1)) top_holder++;
                int mate_top = ((c->max_mask >> top_holder) & 1) == maximiser;
                int ruffable = 0;
                if (trumps && suit != trumps) {
                    for (int p = 0; p < 4; p++)
                        if ((((c->max_mask >> p) & 1) != maximiser) && !(n->hands[p] & suit) && (n->hands[p] & trumps))
                            ruffable = 1;
                }
                if (card == top) sc = ruffable ? 20 : 100;
                else if (mate_top && top_holder != player) sc = ruffable ? 10 : 60;
                else sc = 30 - (card % 13);
            }
            score[ncards] = sc;
            cards[ncards++] = card;
        }
        if (n->hint >= 0 && (moves >> n->hint) & 1) out[count++] = n->hint;
        for (int i = 0; i < ncards; i++) {
            int b = i;
            for (int j = i + 1; j < ncards; j++)
                if (score[j] > score[b]) b = j;
            int ts = score[i], tc = cards[i];
            score[i] = score[b];
            cards[i] = cards[b];
            score[b] = ts;
            cards[b] = tc;
            if (cards[i] != n->hint) out[count++] = cards[i];
        }
        return count;
    } else {
        /* follow: a player wants the trick for the counted seats (a maximiser) or for the others; win it
         * cheaply with a card no later player can beat when that is wanted and not already so, else play
         * low (or, not wanting to win, the highest card that loses); discard low from a long suit, keeping
         * winners */
        int best = n->cards[n->best_pos];
        int winner = (n->leader + n->best_pos) & 3;
        int wants = maximiser;
        int cur_good = ((c->count_mask >> winner) & 1) == wants;
        int me_good = ((c->count_mask >> player) & 1) == wants;
        int led = n->cards[0] / 13;
        u64 led_bits = SUIT_BITS << (13 * led);
        u64 trumps = c->trump >= 0 ? SUIT_BITS << (13 * c->trump) : 0;
        int score[13], cards[13], ncards = 0;
        /* a player who wants a counted seat still to play to win (miserie's three others) keeps the bar low */
        int counted_later = 0;
        if (maximiser && !((c->count_mask >> player) & 1))
            for (int j = k + 1; j < 4; j++) counted_later |= (c->count_mask >> ((n->leader + j) & 3)) & 1;
        u64 m = moves;
        while (m) {
            int card = lowest(m);
            m &= m - 1;
            int s = card / 13, r = card % 13, sc;
            if (beats(card, best, c->trump)) {
                if (!me_good && !maximiser && s == led && ((c->count_mask >> player) & 1)) {
                    /* the miserie declarer over the trick so far: as safe as a card under it when a player still
                     * to play holds only cards over it in the suit led (they must overtake) */
                    int overtaken = 0;
                    for (int j = k + 1; j < 4; j++) {
                        u64 qs = n->hands[(n->leader + j) & 3] & led_bits;
                        if (qs && !(qs & ((2ULL << card) - 1))) overtaken = 1;
                    }
                    sc = overtaken ? 50 + r : -20 + r;
                } else if (!me_good) sc = counted_later ? -20 - r : -20 + r;
                else if (cur_good) sc = 20 - r;
                else {
                    int sure = 1;
                    for (int j = k + 1; j < 4 && sure; j++) {
                        int q = (n->leader + j) & 3;
                        if ((((c->count_mask >> q) & 1) == wants)) continue;
                        u64 qh = n->hands[q];
                        if (qh & led_bits) {
                            if (s == led && (qh & led_bits & ~((2ULL << card) - 1))) sure = 0;
                        } else if (qh & trumps) {
                            if (s != c->trump || (qh & trumps & ~((2ULL << card) - 1))) sure = 0;
                        }
                    }
                    sc = (sure ? 100 : 70) - r;
                }
            } else if (me_good) {
                sc = 50 - r;
                if (s != led) {
                    u64 suit = SUIT_BITS << (13 * s);
                    sc += popcount(n->hands[player] & suit);
                    if (card == highest(out_cards & suit)) sc -= 15;
                }
            } else {
                sc = 50 + r;
            }
            score[ncards] = sc;
            cards[ncards++] = card;
        }
        for (int i = 0; i < ncards; i++) {
            int b = i;
            for (int j = i + 1; j < ncards; j++)
                if (score[j] > score[b]) b = j;
            int ts = score[i], tc = cards[i];
            score[i] = score[b];
            cards[i] = cards[b];
            score[b] = ts;
            cards[b] = tc;
            out[count++] = cards[i];
        }
        return count;
    }
}

/* A trick of miserie's changed game that the declarer lost: the others pick the next leader among those of them who
 * followed in the winning card's gap (no card of the declarer's, in hand or in this trick, lies between theirs and
 * the winning card), the one whose lead raises the count most. */
static int picked_leader(Ctx *c, Node *n, const int trick[4], int winner, int leader, int target, u64 *rel) {
    int declarer = lowest((u64)c->count_mask), led = trick[0] / 13, win_card = trick[(winner - leader) & 3];
    u64 gaps = n->hands[declarer] | (1ULL << trick[(declarer - leader) & 3]);
    int r = 0;
    for (int j = 0; j < 4 && !r && !c->aborted; j++) {
        int q = (leader + j) & 3;
        if (q == declarer || trick[j] / 13 != led) continue;
        if (gaps & ((1ULL << win_card) - 1) & ~((2ULL << trick[j]) - 1)) continue;
        n->leader = q;
        r = at_boundary(c, n, target, rel);
    }
    return r;
}

/* Can the maximising seats still reach `target` counted tricks, with `k` cards of the current trick played?
 * `*rel` receives the cards whose owners the answer depended on (see the top of the file). */
static int in_trick(Ctx *c, Node *n, int k, int target, u64 *rel) {
    int player = (n->leader + k) & 3;
    u64 hand = n->hands[player];
    u64 legal;
    if (k == 0) {
        legal = n->forced ? n->forced : hand;
    } else {
        int led = n->cards[0] / 13;
        u64 follow = hand & (SUIT_BITS << (13 * led));
        legal = follow ? follow : hand;
    }
    u64 out = n->hands[0] | n->hands[1] | n->hands[2] | n->hands[3];
    for (int i = 0; i < k; i++) out |= 1ULL << n->cards[i];
    u64 moves = representatives(legal, out);
    int maximiser = (c->max_mask >> player) & 1;
    int order[13];
    int nmoves = order_moves(n, k, player, moves, out, maximiser, c, order);
    u64 forced = n->forced;
    n->forced = 0;
    int result = !maximiser, decided = -1;
    u64 all_rel = 0;
    for (int i = 0; i < nmoves; i++) {
        int card = order[i];
        if (c->budget >= 0 && c->nodes >= c->budget) {
            c->aborted = 1;
            break;
        }
        c->nodes++;
        int saved_best = n->best_pos;
        n->cards[k] = card;
        n->hands[player] &= ~(1ULL << card);
        if (k == 0) n->best_pos = 0;
        else if (beats(card, n->cards[n->best_pos], c->trump)) n->best_pos = k;
        int r;
        u64 child_rel = 0;
        if (k == 3) {
            int win_card = n->cards[n->best_pos];
            int winner = (n->leader + n->best_pos) & 3;
            int won = (c->count_mask >> winner) & 1;
            int saved_leader = n->leader, trick[4];
            memcpy(trick, n->cards, sizeof trick);
            if (c->changed && !won) {
                r = picked_leader(c, n, trick, winner, saved_leader, target, &child_rel);
            } else {
                n->leader = winner;
                r = at_boundary(c, n, target - won, &child_rel);
            }
            n->leader = saved_leader;
            memcpy(n->cards, trick, sizeof trick);
            /* the winner's rank mattered when it beat a card of its own suit */
            for (int j = 0; j < 4; j++)
                if (trick[j] != win_card && trick[j] / 13 == win_card / 13) {
                    child_rel |= 1ULL << win_card;
                    break;
                }
        } else {
            r = in_trick(c, n, k + 1, target, &child_rel);
        }
        n->hands[player] |= 1ULL << card;
        n->best_pos = saved_best;
        if (c->aborted) break;
        if (r == maximiser) {
            result = r;
            decided = card;
            all_rel = child_rel;
            break;
        }
        all_rel |= child_rel;
    }
    n->forced = forced;
    if (k == 0) n->decided = decided;
    if (decided < 0 && legal != moves) all_rel = cut_runs(all_rel, legal, out);
    *rel = all_rel;
    return result;
}

/* Tricks the leader can cash at once, whatever the others do: in each suit the run of cards still out that
 * the leader holds from the top, cut to the length of any opponent who holds a trump and could ruff. An
 * opponent never has to discard while the leader cashes (it is cut to their length), so the suits add up. */
static int quick_tricks(const Ctx *c, const u64 hands[4], int leader) {
    u64 all = hands[0] | hands[1] | hands[2] | hands[3];
    int side = (c->max_mask >> leader) & 1;
    u64 trumps = c->trump >= 0 ? SUIT_BITS << (13 * c->trump) : 0;
    int total = 0;
    for (int s = 0; s < 4; s++) {
        u64 suit = SUIT_BITS << (13 * s);
        u64 mine = hands[leader] & suit, alive = all & suit;
        int run = 0;
        while (alive && (mine & (1ULL << highest(alive)))) {
            run++;
            alive &= ~(1ULL << highest(alive));
        }
        if (run && trumps && suit != trumps) {
            for (int p = 0; p < 4; p++) {
                if (((c->max_mask >> p) & 1) == side || !(hands[p] & trumps)) continue;
                int length = popcount(hands[p] & suit);
                if (length < run) run = length;
            }
        }
        total += run;
    }
    return total;
}

/* The top `run` cards of `suit` still out in `all`. */
static inline u64 top_cards(u64 all, int suit, int run) {
    u64 alive = all & (SUIT_BITS << (13 * suit)), cards = 0;
    for (int i = 0; i < run && alive; i++) {
        int top = highest(alive);
        cards |= 1ULL << top;
        alive &= ~(1ULL << top);
    }
    return cards;
}

/* Miserie (no trump, one counted seat `d`, not on lead): whether `d` never wins another trick whatever anyone
 * plays. It cannot when in each suit its cards all lie below every card the others hold there: it follows under
 * every lead (the others lead only suits they hold), discards on the rest, and so never leads again. Playing
 * cards only raises the others' lowest, so this holds to the end. `*rel`: in each suit both hold, its highest
 * card (the owners from the top down to it say the others hold everything above). */
static int miserie_done(const u64 hands[4], int d, u64 *rel) {
    u64 all = hands[0] | hands[1] | hands[2] | hands[3], others = all & ~hands[d], why = 0;
    for (int s = 0; s < 4; s++) {
        u64 suit = SUIT_BITS << (13 * s), mine = hands[d] & suit, theirs = others & suit;
        if (!mine || !theirs) continue;
        if (highest(mine) > lowest(theirs)) return 0;
        why |= 1ULL << highest(mine);
    }
    *rel = why;
    return 1;
}

/* In miserie's changed game the others' cards count only by the gap between the declarer's cards they lie in: the
 * position whose others' cards are dealt again within each gap, its highest cards to the lowest-numbered seat, has
 * the same answer. Searching that one lets the table answer every such position alike. */
static void others_in_gaps(const Node *n, int declarer, Node *out) {
    u64 all = n->hands[0] | n->hands[1] | n->hands[2] | n->hands[3], mine = n->hands[declarer];
    *out = *n;
    for (int q = 0; q < 4; q++)
        if (q != declarer) out->hands[q] = 0;
    for (int s = 0; s < 4; s++) {
        u64 alive = all & (SUIT_BITS << (13 * s));
        while (alive) {
            u64 gap = 0;
            while (alive && !((mine >> highest(alive)) & 1)) {
                gap |= 1ULL << highest(alive);
                alive &= ~(1ULL << highest(alive));
            }
            int held[4];
            for (int q = 0; q < 4; q++) held[q] = popcount(n->hands[q] & gap);
            for (int q = 0; q < 4; q++)
                for (int i = 0; q != declarer && i < held[q]; i++) {
                    out->hands[q] |= 1ULL << highest(gap);
                    gap &= ~(1ULL << highest(gap));
                }
            if (alive) alive &= ~(1ULL << highest(alive)); /* the declarer's card that ends the gap */
        }
    }
}

static int search_boundary(Ctx *c, Node *n, int target, u64 *rel);

static int at_boundary(Ctx *c, Node *n, int target, u64 *rel) {
    if (!c->changed) return search_boundary(c, n, target, rel);
    Node gapped;
    others_in_gaps(n, lowest((u64)c->count_mask), &gapped);
    return search_boundary(c, &gapped, target, rel);
}

/* A trick boundary: the bounds that cost nothing, the table, else the search of the next trick. */
static int search_boundary(Ctx *c, Node *n, int target, u64 *rel) {
    int left = popcount(n->hands[n->leader]);
    *rel = 0;
    if (target <= 0) return 1;
    if (target > left) return 0;
    u64 all = n->hands[0] | n->hands[1] | n->hands[2] | n->hands[3];
    if (left == 1) {
        /* the last trick plays itself */
        int best_seat = n->leader;
        int best = lowest(n->hands[n->leader]);
        for (int i = 1; i < 4; i++) {
            int p = (n->leader + i) & 3;
            int card = lowest(n->hands[p]);
            if (beats(card, best, c->trump)) {
                best = card;
                best_seat = p;
            }
        }
        /* the winner's rank mattered when it beat a card of its own suit */
        int by_rank = popcount(all & (SUIT_BITS << (13 * (best / 13)))) > 1;
        if (by_rank) *rel = 1ULL << best;
        return ((c->count_mask >> best_seat) & 1) >= target;
    }
    if (c->trump >= 0) {
        /* the holder of the highest trump still out wins a trick with it, and one with each trump that follows
         * it without a gap: tricks that count, or that cannot, whatever anyone plays */
        u64 trumps = all & (SUIT_BITS << (13 * c->trump));
        if (trumps) {
            int top = highest(trumps), holder = 0;
            while (!((n->hands[holder] >> top) & 1)) holder++;
            int run = 0;
            while (trumps && ((n->hands[holder] >> highest(trumps)) & 1)) {
                run++;
                trumps &= ~(1ULL << highest(trumps));
            }
            if ((c->count_mask >> holder) & 1) {
                if (run >= target) {
                    *rel = top_cards(all, c->trump, run);
                    return 1;
                }
            } else if (left - run < target) {
                *rel = top_cards(all, c->trump, run);
                return 0;
            }
        }
    }
    if (c->trump < 0 && popcount((u64)c->count_mask) == 1 && !((c->count_mask >> n->leader) & 1) &&
        miserie_done(n->hands, lowest((u64)c->count_mask), rel))
        return 0; /* it takes no trick more, and target > 0 */
    int cashes = ((c->max_mask >> n->leader) & 1) == ((c->count_mask >> n->leader) & 1);
    if (cashes) {
        int quick = quick_tricks(c, n->hands, n->leader);
        int hit = ((c->max_mask >> n->leader) & 1) ? quick >= target : left - quick < target;
        if (hit) {
            /* the leader's runs from the top of each suit */
            for (int s = 0; s < 4; s++) {
                u64 alive = all & (SUIT_BITS << (13 * s));
                while (alive && ((n->hands[n->leader] >> highest(alive)) & 1)) {
                    *rel |= 1ULL << highest(alive);
                    alive &= ~(1ULL << highest(alive));
                }
            }
            return ((c->max_mask >> n->leader) & 1);
        }
    }
    u64 shape = shape_of(n->hands), tops = tops_of(n->hands), o1, o2;
    owners_of(n->hands, &o1, &o2);
    int hint_suit = -1, hint_depth = 0;
    int known = tt_lookup(c, shape, n->leader, tops, o1, o2, target, n->hands, rel, &hint_suit, &hint_depth);
    if (known >= 0) return known;
    n->hint = -1;
    if (hint_suit >= 0) {
        /* the stored lead is a place from the top of a suit: find that card among those still out */
        u64 alive = all & (SUIT_BITS << (13 * hint_suit));
        for (int d = 0; alive && d < hint_depth; d++) alive &= ~(1ULL << highest(alive));
        if (alive && (n->hands[n->leader] >> highest(alive)) & 1) n->hint = highest(alive);
    }
    n->decided = -1;
    u64 found = 0;
    int r = in_trick(c, n, 0, target, &found);
    if (c->aborted) return 0; /* unknown: nothing is stored */
    int suit = -1, depth = 0;
    if (n->decided >= 0) {
        suit = n->decided / 13;
        depth = popcount(all & (SUIT_BITS << (13 * suit)) & ~((2ULL << n->decided) - 1));
    }
    u64 m1, m2;
    if (c->changed) found = all; /* changed game: an entry answers its position only (others_in_gaps merges) */
    masks_of(n->hands, found, &m1, &m2);
    if (r) tt_store(c, shape, n->leader, tops, o1, o2, m1, m2, target, left, suit, depth);
    else tt_store(c, shape, n->leader, tops, o1, o2, m1, m2, 0, target - 1, suit, depth);
    *rel = found;
    return r;
}

/* Checks the hands and readies the context for a new question; the size of a hand, or -1. */
static int prepare(Ctx *c, Node *n, const u64 hands_in[4], int leader, int trump, int max_mask, int count_mask,
                   int first_card) {
    if (!c || leader < 0 || leader > 3 || trump < -1 || trump > 3) return -1;
    int size = popcount(hands_in[0]);
    u64 all = 0;
    for (int i = 0; i < 4; i++) {
        if (popcount(hands_in[i]) != size || (hands_in[i] & all) || (hands_in[i] >> 52)) return -1;
        all |= hands_in[i];
    }
    if (first_card >= 0 && !(hands_in[leader] & (1ULL << first_card))) return -1;
    tt_clear(c);
    c->trump = trump;
    c->max_mask = max_mask & 15;
    c->count_mask = count_mask & 15;
    c->nodes = 0;
    c->budget = -1;
    c->aborted = 0;
    memcpy(n->hands, hands_in, sizeof n->hands);
    n->leader = leader;
    n->best_pos = 0;
    n->forced = first_card >= 0 ? 1ULL << first_card : 0;
    n->hint = -1;
    n->decided = -1;
    return size;
}

/* A forced first lead makes the root position unlike any other: it is searched without the table.
 * 1 or 0, or -2 when the budget ran out first. */
static int reach(Ctx *c, Node *n, int target) {
    u64 rel;
    int r = n->forced ? in_trick(c, n, 0, target, &rel) : at_boundary(c, n, target, &rel);
    return c->aborted ? -2 : r;
}

/* Bounds that cost no search: the top-trump run and the leader's quick tricks, as at a trick boundary. */
static void static_bounds(const Ctx *c, const Node *n, int size, int *lo, int *hi) {
    *lo = 0;
    *hi = size;
    if (n->forced || size == 0) return;
    if (c->trump >= 0) {
        u64 trumps = (n->hands[0] | n->hands[1] | n->hands[2] | n->hands[3]) & (SUIT_BITS << (13 * c->trump));
        if (trumps) {
            int top = highest(trumps), holder = 0;
            while (!((n->hands[holder] >> top) & 1)) holder++;
            int run = 0;
            while (trumps && ((n->hands[holder] >> highest(trumps)) & 1)) {
                run++;
                trumps &= ~(1ULL << highest(trumps));
            }
            if ((c->count_mask >> holder) & 1) {
                if (run > *lo) *lo = run;
            } else if (size - run < *hi) {
                *hi = size - run;
            }
        }
    }
    if (((c->max_mask >> n->leader) & 1) == ((c->count_mask >> n->leader) & 1)) {
        int quick = quick_tricks(c, n->hands, n->leader);
        if ((c->max_mask >> n->leader) & 1) {
            if (quick > *lo) *lo = quick;
        } else if (size - quick < *hi) {
            *hi = size - quick;
        }
    }
}

/* The tightest range [*low, *high] of the counted tricks under best play (the seats of `max_mask` raise them,
 * the others lower them) that `budget` nodes prove (budget < 0: no limit, the exact value), within
 * [`floor`, `ceiling`], a range the caller already knows holds the count (0 and 13 when it knows nothing). First
 * the bounds that cost nothing, then null-window questions, halving the range, until it closes or the budget
 * runs out. `hands`: four bit sets of equal size (0..13 cards); `leader` leads the first trick; `trump` 0..3 or
 * -1; `first_card` (-1 for none) is the card the leader must lead. Returns 0; -1 when the hands are not
 * playable; -3 when the known range is empty or contradicts the bounds that cost nothing. */
int wz_bounds(void *p, const u64 hands_in[4], int leader, int trump, int max_mask, int count_mask, int first_card,
              int floor, int ceiling, long long budget, int *low, int *high, long long *nodes) {
    Ctx *c = p;
    Node n;
    int size = prepare(c, &n, hands_in, leader, trump, max_mask, count_mask, first_card);
    if (size < 0) return -1;
    int lo, hi;
    static_bounds(c, &n, size, &lo, &hi);
    if (floor > lo) lo = floor;
    if (ceiling < hi) hi = ceiling;
    if (lo > hi) return -3;
    /* halving questions; on a budget, each may spend half of what is left, and when one in the middle runs out,
     * the questions next to the ends (cheaper, far from the answer) narrow the range from both sides */
    int edges = 0, hard_low = 0, hard_high = 0, turn = 0;
    while (lo < hi) {
        long long left = budget - c->nodes;
        if (budget >= 0 && left <= 0) break;
        int target;
        if (!edges) target = (lo + hi + 1) / 2;
        else if (hard_low && hard_high) break;
        else if (hard_low || (!hard_high && turn)) target = hi;
        else target = lo + 1;
        turn = !turn;
        c->budget = budget < 0 ? -1 : c->nodes + (hi - lo == 1 ? left : (left + 1) / 2);
        c->aborted = 0;
        int r = reach(c, &n, target);
        if (r < 0) {
            if (!edges) edges = 1;
            else if (target == hi) hard_high = 1;
            else hard_low = 1;
            continue;
        }
        if (r) {
            lo = target;
            hard_low = 0;
        } else {
            hi = target - 1;
            hard_high = 0;
        }
    }
    if (low) *low = lo;
    if (high) *high = hi;
    if (nodes) *nodes = c->nodes;
    return 0;
}

/* A bound from above on miserie's count (`declarer` alone without trump, the three others raising its tricks):
 * its count in a changed game where, after each trick the declarer loses, the others pick the next leader among
 * those of them who followed in the winning card's gap between the declarer's cards (picked_leader). The real game
 * gives one of those leaders, so it counts no more. The changed game is far cheaper, as the others' cards count only
 * by gap (others_in_gaps), and on most deals it meets the real count. Arguments as wz_bounds, [`floor`, `ceiling`]
 * a range known to hold the real count; *high receives the bound (the changed game's count, clipped to the range),
 * or what `budget` nodes proved of it. Returns as wz_bounds: 0, -1 (hands not playable) or -3 (range ruled out). */
int wz_miserie_ceiling(void *p, const u64 hands_in[4], int leader, int declarer, int floor, int ceiling,
                       long long budget, int *high, long long *nodes) {
    Ctx *c = p;
    if (!c || declarer < 0 || declarer > 3) return -1;
    int low;
    c->changed = 1;
    int status = wz_bounds(p, hands_in, leader, -1, 15 & ~(1 << declarer), 1 << declarer, -1, floor, ceiling, budget,
                           &low, high, nodes);
    c->changed = 0;
    return status;
}

/* The exact count (wz_bounds without a budget). -1 when the hands are not playable. */
int wz_solve(void *p, const u64 hands_in[4], int leader, int trump, int max_mask, int count_mask, int first_card,
             long long *nodes) {
    int lo, hi;
    if (wz_bounds(p, hands_in, leader, trump, max_mask, count_mask, first_card, 0, 13, -1, &lo, &hi, nodes) < 0)
        return -1;
    return lo;
}

/* Whether the seats of `max_mask` can reach `target` counted tricks: one question, for a contract that needs
 * them all (solo) where the exact count does not matter. 1 or 0; -2 when `budget` nodes (< 0: no limit) did not
 * settle it; -1 when the hands are not playable. */
int wz_reach(void *p, const u64 hands_in[4], int leader, int trump, int max_mask, int count_mask, int first_card,
             int target, long long budget, long long *nodes) {
    Ctx *c = p;
    Node n;
    int size = prepare(c, &n, hands_in, leader, trump, max_mask, count_mask, first_card);
    if (size < 0) return -1;
    int lo, hi;
    static_bounds(c, &n, size, &lo, &hi);
    int yes;
    if (target <= lo) yes = 1;
    else if (target > hi) yes = 0;
    else {
        c->budget = budget;
        yes = reach(c, &n, target);
    }
    if (nodes) *nodes = c->nodes;
    return yes;
}
