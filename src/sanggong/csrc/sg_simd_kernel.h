/* One vector kernel of sg_simd.h (32 hands a step in 256-bit vectors), included there once
 * for each instruction set it is compiled for, with
 *
 *     SG_T         the target attribute of its functions (empty for MSVC's AVX2),
 *     SG_FN(name)  its functions' names (sg_eval_avx2, sg_eval_avx512, ...),
 *     SG_VBMI      1: AVX-512 VBMI's two-register byte permute reads the 48-entry tables
 *                  (and B as a 64-entry one) in one instruction; 0: AVX2's 16-byte
 *                  shuffles and blends do. (The AVX-512 kernel without VBMI is the AVX2
 *                  source compiled for AVX-512VL: 32 vector registers, so the tables and
 *                  constants stay in registers. Splitting the codes by VBMI permutes from
 *                  plain loads, 6 permutes for 9 shuffles, measured slower: the permutes
 *                  all go to one port, where the in-lane shuffles have two.)
 *
 * No include guard: included once per kernel, by sg_simd.h only. */

#if SG_VBMI
/* The byte at k < 64 of the 64-byte table t[0], t[1]: one permute of two registers. */
#define SG_LUT(t, k, s4, s5) _mm256_permutex2var_epi8((t)[0], (k), (t)[1])
#else
#define SG_LUT(t, k, s4, s5) sg_lut48((t), (k), (s4), (s5))
#endif

/* The ranks (uint8, or uint16 where high is 2: 64 bytes) and Pair Plus categories of the
 * 32 hands of codes c0, c1, c2 (checked), to r and pp, as want_rank and want_pp say.
 * ta, th: A_lo and A_hi (VBMI: 64 bytes in two vectors; else three 16-byte thirds);
 * tb: B (VBMI: 64 bytes, 0 but for the keys 16..31; else the 16 of those keys). */
SG_T SG_ALWAYS_INLINE void SG_FN(sg_eval32)(sg_const_t sgk, const __m256i *ta, const __m256i *th, const __m256i *tb,
                                            const int high, const int want_rank, const int want_pp,
                                            __m256i c0, __m256i c1, __m256i c2, uint8_t *r, uint8_t *pp) {
    __m256i q0 = _mm256_and_si256(c0, SG_K(SG_RANK_BITS)), q1 = _mm256_and_si256(c1, SG_K(SG_RANK_BITS));
    __m256i q2 = _mm256_and_si256(c2, SG_K(SG_RANK_BITS));  /* 4 * rank */
    __m256i r0 = _mm256_srli_epi16(q0, 2);  /* (no bit crosses a byte: q's low bits are 0) */
    __m256i e01 = _mm256_cmpeq_epi8(q0, q1), e12 = _mm256_cmpeq_epi8(q1, q2), e02 = _mm256_cmpeq_epi8(q0, q2);
    __m256i trips = _mm256_and_si256(e01, e12);
    __m256i any = _mm256_or_si256(_mm256_or_si256(e01, e12), e02);
    if (want_pp) {
        __m256i lo = _mm256_min_epu8(_mm256_min_epu8(q0, q1), q2), hi = _mm256_max_epu8(_mm256_max_epu8(q0, q1), q2);
        __m256i run = _mm256_cmpeq_epi8(_mm256_sub_epi8(hi, lo), SG_K(SG_8));
        /* A, Q, K: lowest and highest 4 * rank sum to 48 and all three to 92 (or a pair, 4 44 44) */
        __m256i aqk = _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_add_epi8(lo, hi), SG_K(SG_48)),
                                       _mm256_cmpeq_epi8(_mm256_add_epi8(_mm256_add_epi8(q0, q1), q2), SG_K(SG_92)));
        __m256i straight = _mm256_andnot_si256(any, _mm256_or_si256(run, aqk));
        __m256i suits = _mm256_and_si256(_mm256_or_si256(_mm256_xor_si256(c0, c1), _mm256_xor_si256(c1, c2)), SG_K(SG_3));
        __m256i flush = _mm256_cmpeq_epi8(suits, _mm256_setzero_si256());
        __m256i key = _mm256_or_si256(
            _mm256_or_si256(_mm256_and_si256(trips, SG_K(SG_8)), _mm256_and_si256(straight, SG_K(SG_4))),
            _mm256_or_si256(_mm256_and_si256(flush, SG_K(SG_2)), _mm256_and_si256(any, SG_K(SG_1))));
        _mm256_storeu_si256((__m256i *)pp, _mm256_shuffle_epi8(SG_K(SG_PAIR_PLUS), key));
    }
    if (!want_rank) return;
    __m256i r1 = _mm256_srli_epi16(q1, 2), r2 = _mm256_srli_epi16(q2, 2);
    __m256i s = _mm256_add_epi8(_mm256_add_epi8(_mm256_shuffle_epi8(SG_K(SG_POINTS_FACES), r0),
                                                _mm256_shuffle_epi8(SG_K(SG_POINTS_FACES), r1)),
                                _mm256_shuffle_epi8(SG_K(SG_POINTS_FACES), r2));
    __m256i k = _mm256_blendv_epi8(sg_mod10(sgk, sg_mod10(sgk, s)), _mm256_shuffle_epi8(SG_K(SG_TRIPS_KEY), r0), trips);
    __m256i s4 = _mm256_cmpgt_epi8(k, SG_K(SG_15)), s5 = _mm256_cmpgt_epi8(k, SG_K(SG_31));
    (void)s4, (void)s5;  /* (unused by the VBMI tables) */
    if (high == 2) {  /* uint16: the high byte A_hi[K], the low one the strongest card */
        __m256i k0 = _mm256_xor_si256(c0, _mm256_shuffle_epi8(SG_K(SG_SUIT_FLIP), c0));
        __m256i k1 = _mm256_xor_si256(c1, _mm256_shuffle_epi8(SG_K(SG_SUIT_FLIP), c1));
        __m256i k2 = _mm256_xor_si256(c2, _mm256_shuffle_epi8(SG_K(SG_SUIT_FLIP), c2));
        __m256i h = _mm256_max_epu8(_mm256_max_epu8(k0, k1), k2), hi = SG_LUT(th, k, s4, s5);
        __m256i w0 = _mm256_unpacklo_epi8(h, hi), w1 = _mm256_unpackhi_epi8(h, hi);
        _mm256_storeu_si256((__m256i *)r, _mm256_permute2x128_si256(w0, w1, 0x20));
        _mm256_storeu_si256((__m256i *)r + 1, _mm256_permute2x128_si256(w0, w1, 0x31));
        return;
    }
    __m256i lo = SG_LUT(ta, k, s4, s5);
    if (high == 1) {
        __m256i h = _mm256_max_epu8(_mm256_max_epu8(r0, r1), r2);
#if SG_VBMI
        __m256i b = _mm256_permutex2var_epi8(tb[0], k, tb[1]);  /* B[k], 0 outside 16..31 */
#else
        /* B[k] for k in 16..31 (k - 16 + 112 keeps the shuffle's index there, sets its top
         * bit, which gives 0, elsewhere) */
        __m256i b = _mm256_shuffle_epi8(tb[0], _mm256_adds_epu8(_mm256_sub_epi8(k, SG_K(SG_16)), SG_K(SG_112)));
#endif
        /* taken off h >= G (h < 128: a signed compare) */
        __m256i past = _mm256_cmpgt_epi8(h, SG_K(SG_3));
        lo = _mm256_add_epi8(lo, _mm256_sub_epi8(h, _mm256_and_si256(past, b)));
    }
    _mm256_storeu_si256((__m256i *)r, lo);
}

/* The loop, for a high-card mode, rank width and outputs fixed at compile time. Software
 * pipelined: the next step's codes are loaded before this step's are evaluated, so that
 * the loads' latency overlaps the arithmetic. The last hands (fewer than 32) go through
 * buffers, the codes padded with aces. */
SG_T SG_ALWAYS_INLINE ptrdiff_t SG_FN(sg_loop)(const sg_eval_formula *formula, const int high, const int wide,
                                               const int want_rank, const int want_pp, const uint8_t *h, ptrdiff_t n,
                                               uint8_t *r, uint8_t *pp) {
    __m256i ta[3], th[3], tb[3], a, b, c, c0, c1, c2, over;
    const ptrdiff_t size = wide ? 2 : 1, full = n - n % 32;
    uint8_t in[96], out_r[64], out_p[32];
    sg_const_t sgk = sg_const_at;
    ptrdiff_t i, j;
#if SG_VBMI
    uint8_t gap64[64] = {0};
    memcpy(gap64 + 16, formula->gap, 16);
    for (j = 0; j < 2; j++) {
        ta[j] = _mm256_loadu_si256((const __m256i *)(formula->a_lo + 32 * j));
        th[j] = _mm256_loadu_si256((const __m256i *)(formula->a_hi + 32 * j));
        tb[j] = _mm256_loadu_si256((const __m256i *)(gap64 + 32 * j));
    }
    ta[2] = th[2] = tb[2] = _mm256_setzero_si256();
#else
    for (j = 0; j < 3; j++) {
        ta[j] = sg_bcast16(formula->a_lo + 16 * j);
        th[j] = sg_bcast16(formula->a_hi + 16 * j);
    }
    tb[0] = sg_bcast16(formula->gap);
    tb[1] = tb[2] = _mm256_setzero_si256();
#endif
    if (full > 0) sg_load32(h, &a, &b, &c);
    for (i = 0; i < full; i += 32) {
        over = _mm256_subs_epu8(_mm256_max_epu8(_mm256_max_epu8(a, b), c), SG_K(SG_51));
        if (!_mm256_testz_si256(over, over)) return i + sg_first_bad_u8(h + 3 * i, 32);
        sg_split(a, b, c, &c0, &c1, &c2);
        /* the next step's codes (the last step reloads its own: no branch, no read past n) */
        sg_load32(h + 3 * (i + 32 < full ? i + 32 : i), &a, &b, &c);
        SG_FN(sg_eval32)(sgk, ta, th, tb, high, want_rank, want_pp, c0, c1, c2,
                         want_rank ? r + size * i : out_r, want_pp ? pp + i : out_p);
    }
    if (i < n) {
        const ptrdiff_t m = n - i;
        memset(in, 0, sizeof in);
        memcpy(in, h + 3 * i, (size_t)(3 * m));
        sg_load32(in, &a, &b, &c);
        over = _mm256_subs_epu8(_mm256_max_epu8(_mm256_max_epu8(a, b), c), SG_K(SG_51));
        if (!_mm256_testz_si256(over, over)) return i + sg_first_bad_u8(in, m);
        sg_split(a, b, c, &c0, &c1, &c2);
        SG_FN(sg_eval32)(sgk, ta, th, tb, high, want_rank, want_pp, c0, c1, c2, out_r, out_p);
        if (want_rank) memcpy(r + size * i, out_r, (size_t)(size * m));
        if (want_pp) memcpy(pp + i, out_p, (size_t)m);
    }
    return -1;
}

/* The formulas pair the modes with the ranks' widths as every ranking does (no high card and
 * the rank: uint8 ranks; rank and suit: uint16): three loops for each choice of outputs. */
#define SG_LOOPS(want_rank, want_pp)                                                 \
    (formula->high == 0   ? SG_FN(sg_loop)(formula, 0, 0, want_rank, want_pp, h, n, r, pp) \
     : formula->high == 1 ? SG_FN(sg_loop)(formula, 1, 0, want_rank, want_pp, h, n, r, pp) \
                       : SG_FN(sg_loop)(formula, 2, 1, want_rank, want_pp, h, n, r, pp))

/* Rank (uint8, or uint16 where formula->high is 2) and Pair Plus category of the n hands at h
 * into ranks and pp (either may be NULL); returns the first row holding a code outside
 * 0..51 (the rows before it are written), or -1. Call only where the CPU runs the kernel. */
SG_T static ptrdiff_t SG_FN(sg_eval)(const sg_eval_formula *formula, const uint8_t *h, ptrdiff_t n, void *ranks, uint8_t *pp) {
    ptrdiff_t bad;
    uint8_t *r = (uint8_t *)ranks;
    if (r == NULL)
        bad = SG_FN(sg_loop)(formula, 0, 0, 0, 1, h, n, r, pp);
    else if (pp == NULL)
        bad = SG_LOOPS(1, 0);
    else
        bad = SG_LOOPS(1, 1);
    _mm256_zeroupper();
    return bad;
}
#undef SG_LOOPS
#undef SG_LUT
