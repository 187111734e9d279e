/* What every C header of the core shares: how it asks the compiler to inline. */
#ifndef SANGGONG_SG_COMMON_H
#define SANGGONG_SG_COMMON_H

/* Always inlined: the round loops' steps and the shoe procedure's rules take a table's
 * numbers as arguments, and a loop that passes constants gets code specialised for them. */
#if defined(_MSC_VER)
#define SG_ALWAYS_INLINE static __forceinline
#else
#define SG_ALWAYS_INLINE static inline __attribute__((always_inline))
#endif

#if defined(__GNUC__) || defined(__clang__)
#define SG_FALLTHROUGH __attribute__((fallthrough))
#define SG_LIKELY(x) __builtin_expect(!!(x), 1)
#else
#define SG_FALLTHROUGH (void)0
#define SG_LIKELY(x) (x)
#endif

#endif
