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
 * of the tricks still to come. Its key is the position up to rank equivalence: for each suit, which seat
 * holds the highest card still out, the next, and so on, so positions that differ only by cards already
 * played share one entry. Cards of one hand with no card still out between them are equivalent, and only
 * one of them is tried. The exact value is found by a few such questions, narrowed by the bounds.
 *
 * Cards are bits 0..51: suit * 13 + rank - 2, suits C D H S (games/cards.py). Plain C, no Python headers:
 * games/solver/__init__.py loads it with ctypes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t u64;

#define SUIT_BITS 0x1FFFULL
#define TT_BITS 21
#define TT_SIZE (1u << TT_BITS)
#define TT_WAYS 4

typedef struct {
    u64 k1, k2;
    uint32_t gen;
    int8_t lb, ub;
    int8_t lead_suit, lead_depth; /* the lead that last decided this position: suit, and place from the top */
} Entry;

typedef struct {
    Entry *table;
    uint32_t gen;
    int trump;      /* 0..3, or -1 for no trump */
    int max_mask;   /* seats that raise the count */
    int count_mask; /* seats whose tricks count */
    long long nodes;
    long long budget; /* nodes the current question may visit, or -1 for no limit */
    int aborted;      /* the budget ran out: the search unwinds and its answers are unknown */
} Ctx;

static inline int popcount(u64 x) { return __builtin_popcountll(x); }
static inline int lowest(u64 x) { return __builtin_ctzll(x); }
static inline int highest(u64 x) { return 63 - __builtin_clzll(x); }

void *wz_new(void) {
    Ctx *c = calloc(1, sizeof(Ctx));
    if (!c) return NULL;
    c->table = calloc(TT_SIZE, sizeof(Entry));
    if (!c->table) {
        free(c);
        return NULL;
    }
    c->gen = 1;
    return c;
}

void wz_free(void *p) {
    Ctx *c = p;
    if (!c) return;
    free(c->table);
    free(c);
}

/* The position's key up to rank equivalence: per suit, the owners of the cards still out, highest first. */
static void position_key(const u64 hands[4], int leader, u64 *k1, u64 *k2) {
    u64 owners[4] = {0, 0, 0, 0};
    for (int s = 0; s < 4; s++) {
        u64 key = 0;
        int n = 0;
        for (int r = 12; r >= 0; r--) {
            u64 bit = 1ULL << (s * 13 + r);
            for (int p = 0; p < 4; p++) {
                if (hands[p] & bit) {
                    key |= (u64)p << (2 * n);
                    n++;
                    break;
                }
            }
        }
        owners[s] = key | ((u64)n << 26);
    }
    *k1 = owners[0] | (owners[1] << 30);
    *k2 = owners[2] | (owners[3] << 30) | ((u64)leader << 60);
}

static inline uint32_t slot_of(u64 k1, u64 k2) {
    u64 h = k1 * 0x9E3779B97F4A7C15ULL ^ (k2 + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    h ^= h >> 29;
    return (uint32_t)(h & (TT_SIZE - TT_WAYS));
}

static Entry *tt_find(Ctx *c, u64 k1, u64 k2) {
    Entry *bucket = c->table + slot_of(k1, k2);
    for (int i = 0; i < TT_WAYS; i++)
        if (bucket[i].gen == c->gen && bucket[i].k1 == k1 && bucket[i].k2 == k2) return bucket + i;
    return NULL;
}

static void tt_store(Ctx *c, u64 k1, u64 k2, int lb, int ub, int suit, int depth) {
    Entry *bucket = c->table + slot_of(k1, k2);
    Entry *victim = NULL;
    for (int i = 0; i < TT_WAYS; i++) {
        Entry *e = bucket + i;
        if (e->gen == c->gen && e->k1 == k1 && e->k2 == k2) {
            if (lb > e->lb) e->lb = (int8_t)lb;
            if (ub < e->ub) e->ub = (int8_t)ub;
            if (suit >= 0) {
                e->lead_suit = (int8_t)suit;
                e->lead_depth = (int8_t)depth;
            }
            return;
        }
        if (!victim && e->gen != c->gen) victim = e;
    }
    if (!victim) victim = bucket + (int)((k1 ^ k2) & (TT_WAYS - 1));
    victim->k1 = k1;
    victim->k2 = k2;
    victim->gen = c->gen;
    victim->lb = (int8_t)lb;
    victim->ub = (int8_t)ub;
    victim->lead_suit = (int8_t)suit;
    victim->lead_depth = (int8_t)depth;
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

static int at_boundary(Ctx *c, Node *n, int target);

/* Order `moves` (at most 13) into `out` for the player at trick position k; returns their number. */
static int order_moves(const Node *n, int k, int player, u64 moves, u64 out_cards, int maximiser, Ctx *c, int *out) {
    int count = 0;
    if (k == 0) {
        /* lead: score each card. A winner (the highest card out in its suit) that no opponent can ruff first; a
         * low card to a partner's winner next; then short of a winner, the lowest cards first. */
        u64 opp_trumps_void[4] = {0, 0, 0, 0};
        u64 trumps = c->trump >= 0 ? SUIT_BITS << (13 * c->trump) : 0;
        int score[13];
        int cards[13], ncards = 0;
        (void)opp_trumps_void;
        u64 m = moves;
        while (m) {
            int card = lowest(m);
            m &= m - 1;
            int s = card / 13;
            u64 suit = SUIT_BITS << (13 * s);
            u64 alive = out_cards & suit;
            int top = highest(alive);
            int top_holder = 0;
            while (!((n->hands[top_holder] >> top) & 1)) top_holder++;
            int mate_top = ((c->max_mask >> top_holder) & 1) == maximiser;
            int ruffable = 0;
            if (trumps && suit != trumps) {
                for (int p = 0; p < 4; p++)
                    if ((((c->max_mask >> p) & 1) != maximiser) && !(n->hands[p] & suit) && (n->hands[p] & trumps))
                        ruffable = 1;
            }
            int sc;
            if (card == top) sc = ruffable ? 20 : 100;
            else if (mate_top && top_holder != player) sc = ruffable ? 10 : 60;
            else sc = 30 - (card % 13);
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
        int best = n->cards[n->best_pos];
        int winner = (n->leader + n->best_pos) & 3;
        int mate_wins = (((c->max_mask >> winner) & 1) == maximiser);
        u64 m = moves;
        int winners[13], nwin = 0, losers[13], nlose = 0;
        while (m) {
            int card = lowest(m);
            m &= m - 1;
            if (beats(card, best, c->trump)) winners[nwin++] = card;
            else losers[nlose++] = card;
        }
        if (mate_wins) {
            for (int i = 0; i < nlose; i++) out[count++] = losers[i];
            for (int i = 0; i < nwin; i++) out[count++] = winners[i];
        } else {
            for (int i = 0; i < nwin; i++) out[count++] = winners[i];
            for (int i = 0; i < nlose; i++) out[count++] = losers[i];
        }
        return count;
    }
}

/* Can the maximising seats still reach `target` counted tricks, with `k` cards of the current trick played? */
static int in_trick(Ctx *c, Node *n, int k, int target) {
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
        if (k == 3) {
            int winner = (n->leader + n->best_pos) & 3;
            int won = (c->count_mask >> winner) & 1;
            int saved_leader = n->leader, trick[4];
            memcpy(trick, n->cards, sizeof trick);
            n->leader = winner;
            r = at_boundary(c, n, target - won);
            n->leader = saved_leader;
            memcpy(n->cards, trick, sizeof trick);
        } else {
            r = in_trick(c, n, k + 1, target);
        }
        n->hands[player] |= 1ULL << card;
        n->best_pos = saved_best;
        if (c->aborted) break;
        if (r == maximiser) {
            result = r;
            decided = card;
            break;
        }
    }
    n->forced = forced;
    if (k == 0) n->decided = decided;
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

static int at_boundary(Ctx *c, Node *n, int target) {
    int left = popcount(n->hands[n->leader]);
    if (target <= 0) return 1;
    if (target > left) return 0;
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
        return ((c->count_mask >> best_seat) & 1) >= target;
    }
    if (c->trump >= 0) {
        /* the holder of the highest trump still out wins a trick with it, and one with each trump that follows
         * it without a gap: tricks that count, or that cannot, whatever anyone plays */
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
                if (run >= target) return 1;
            } else if (left - run < target) {
                return 0;
            }
        }
    }
    int cashes = ((c->max_mask >> n->leader) & 1) == ((c->count_mask >> n->leader) & 1);
    if (cashes) {
        int quick = quick_tricks(c, n->hands, n->leader);
        if ((c->max_mask >> n->leader) & 1) {
            if (quick >= target) return 1;
        } else if (left - quick < target) {
            return 0;
        }
    }
    u64 k1, k2;
    position_key(n->hands, n->leader, &k1, &k2);
    Entry *e = tt_find(c, k1, k2);
    if (e) {
        if (e->lb >= target) return 1;
        if (e->ub < target) return 0;
    }
    n->hint = -1;
    if (e && e->lead_suit >= 0) {
        /* the stored lead is a place from the top of a suit: find that card among those still out */
        u64 alive = (n->hands[0] | n->hands[1] | n->hands[2] | n->hands[3]) & (SUIT_BITS << (13 * e->lead_suit));
        for (int d = 0; alive && d < e->lead_depth; d++) alive &= ~(1ULL << highest(alive));
        if (alive && (n->hands[n->leader] >> highest(alive)) & 1) n->hint = highest(alive);
    }
    n->decided = -1;
    int r = in_trick(c, n, 0, target);
    if (c->aborted) return 0; /* unknown: nothing is stored */
    int suit = -1, depth = 0;
    if (n->decided >= 0) {
        suit = n->decided / 13;
        u64 above = (n->hands[0] | n->hands[1] | n->hands[2] | n->hands[3]) & (SUIT_BITS << (13 * suit)) &
                    ~((2ULL << n->decided) - 1);
        depth = popcount(above);
    }
    if (r) tt_store(c, k1, k2, target, left, suit, depth);
    else tt_store(c, k1, k2, 0, target - 1, suit, depth);
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
    c->gen++;
    if (c->gen == 0) {
        memset(c->table, 0, TT_SIZE * sizeof(Entry));
        c->gen = 1;
    }
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
    int r = n->forced ? in_trick(c, n, 0, target) : at_boundary(c, n, target);
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
 * the others lower them) that `budget` nodes prove (budget < 0: no limit, the exact value). First the bounds
 * that cost nothing, then null-window questions, halving the range, until it closes or the budget runs out.
 * `hands`: four bit sets of equal size (0..13 cards); `leader` leads the first trick; `trump` 0..3 or -1;
 * `first_card` (-1 for none) is the card the leader must lead. Returns 0, or -1 when the hands are not playable. */
int wz_bounds(void *p, const u64 hands_in[4], int leader, int trump, int max_mask, int count_mask, int first_card,
              long long budget, int *low, int *high, long long *nodes) {
    Ctx *c = p;
    Node n;
    int size = prepare(c, &n, hands_in, leader, trump, max_mask, count_mask, first_card);
    if (size < 0) return -1;
    int lo, hi;
    static_bounds(c, &n, size, &lo, &hi);
    c->budget = budget;
    while (lo < hi) {
        int target = (lo + hi + 1) / 2;
        int r = reach(c, &n, target);
        if (r < 0) break;
        if (r) lo = target;
        else hi = target - 1;
    }
    if (low) *low = lo;
    if (high) *high = hi;
    if (nodes) *nodes = c->nodes;
    return 0;
}

/* The exact count (wz_bounds without a budget). -1 when the hands are not playable. */
int wz_solve(void *p, const u64 hands_in[4], int leader, int trump, int max_mask, int count_mask, int first_card,
             long long *nodes) {
    int lo, hi;
    if (wz_bounds(p, hands_in, leader, trump, max_mask, count_mask, first_card, -1, &lo, &hi, nodes) < 0) return -1;
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
