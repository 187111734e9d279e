# Log lines (included into _core.pyx): the two kernels of ``verify``'s fast pass
# (``sanggong.verify._fastlog``), which writes each round's record as a game writes it and accepts a
# log's line only when it is that text, byte for byte.
#
# render_rounds writes a shoe's rounds from a template made by the record's own writers
# (``json_line``, ``canonical_json``): literal text and slots, a slot naming a field of the
# round (its number, cards, hands, winners) or a hole the record's slip and chain fill; each
# round's line and canonical bytes come out as their pieces between the holes, packed in one
# bytes object (``_logline.pack`` says how). check_line fills the holes of one round, hashes
# the canonical bytes (hashlib, as the records do) and compares the line with the text,
# piece by piece, without making it.
#
# The slots are ``sanggong._logline``'s numbers (read here at import).

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from libc.stdlib cimport realloc
from libc.string cimport memcmp

from sanggong._limits cimport SG_MAX_POSITIONS

import hashlib as _hashlib
import hmac as _hmac_module

try:  # OpenSSL's one-shot HMAC, which hmac.digest calls for a named digest (without its Python frame)
    from _hashlib import hmac_digest as _hmac_digest
except ImportError:  # (a Python built without OpenSSL's hashlib: hmac's own)
    _hmac_digest = _hmac_module.digest

from sanggong import _logline

cdef int _SLOT_ROUND = _logline.ROUND, _SLOT_IN_SHOE = _logline.IN_SHOE, _SLOT_CUT = _logline.CUT
cdef int _SLOT_LAST = _logline.LAST, _SLOT_HEAD = _logline.HEAD, _SLOT_BURNED = _logline.BURNED
cdef int _SLOT_CONST = _logline.CONST, _SLOT_HAND = _logline.HAND, _SLOT_WIN = _logline.WIN
cdef int _SLOT_HOLE = _logline.HOLE, _SLOT_END = _logline.END, _NO_CARD = _logline.NO_CARD
if not _SLOT_END < _SLOT_ROUND < _SLOT_IN_SHOE < _SLOT_CUT < _SLOT_LAST < _SLOT_HEAD < _SLOT_BURNED < _SLOT_CONST \
        < _SLOT_HAND < _SLOT_WIN < _SLOT_HOLE or _SLOT_CONST + _MOST_CONSTS > _SLOT_HAND \
        or _SLOT_HAND + SG_MAX_POSITIONS + 1 > _SLOT_WIN or _SLOT_WIN + SG_MAX_POSITIONS + 1 > _SLOT_HOLE:  # (the kernel tells them apart by these ranges)
    raise ImportError("sanggong._logline's slots are not in the order render_rounds reads them")


cdef enum:
    _MOST_CONSTS = 8  # a template's constants (the shoe's number and its state's two texts)
    _QUOTED_HEX = 66  # a quoted SHA-256 digest: '"' + 64 hex digits + '"'


cdef struct _Text:
    char* data
    Py_ssize_t size, used


cdef int _grow(_Text* text, Py_ssize_t more) except -1:
    cdef Py_ssize_t size = text.size
    cdef char* data
    if text.used + more <= size:
        return 0
    while size < text.used + more:
        size = size * 2 + 256
    data = <char*>realloc(text.data, size)
    if data == NULL:
        raise MemoryError()
    text.data, text.size = data, size
    return 0


cdef int _put(_Text* text, object piece) except -1:
    """Append a bytes object's text."""
    cdef Py_ssize_t n = PyBytes_GET_SIZE(piece)
    _grow(text, n)
    memcpy(text.data + text.used, PyBytes_AS_STRING(piece), n)
    text.used += n
    return 0


cdef int _put_int(_Text* text, long long value) except -1:
    """Append a whole number's decimal text (as ``%d`` writes it)."""
    cdef char digits[24]
    cdef int n = 0
    cdef unsigned long long left = <unsigned long long>(-value) if value < 0 else <unsigned long long>value
    _grow(text, 24)
    while True:
        digits[n] = <char>(48 + left % 10)
        n += 1
        left //= 10
        if left == 0:
            break
    if value < 0:
        text.data[text.used] = b"-"
        text.used += 1
    while n:
        n -= 1
        text.data[text.used] = digits[n]
        text.used += 1
    return 0


cdef list _checked_texts(object values, Py_ssize_t n, str what):
    """``values`` as a list of ``n`` bytes objects."""
    out = list(values)
    if len(out) != n:
        raise ValueError(f"{what}: {len(out)} texts where {n} are needed")
    for value in out:
        if type(value) is not bytes:
            raise TypeError(f"{what}: a text is bytes, not {type(value).__name__}")
    return out


cdef class LineTemplate:
    """A round's line and canonical bytes as ``render_rounds`` writes them, checked once:
    two templates of ``(literal, slot)`` pairs (each ending with the slot END) for a table
    of ``hands`` hands with ``consts`` constants, the winner words of a hand that loses,
    ties and beats the banker's, the 52 cards' texts, and each hand's class, rank and Pair
    Plus category by its cards (``c0 * 2704 + c1 * 52 + c2``: arrays of 140,608).
    Immutable (safe to share between threads)."""

    cdef readonly tuple ops_line, ops_canonical
    cdef readonly Py_ssize_t hands, consts
    cdef list words, cards
    cdef object arrays
    cdef const uint8_t[::1] hand_class
    cdef const uint16_t[::1] hand_rank
    cdef const uint8_t[::1] hand_pp
    cdef int* slots
    cdef const char** texts
    cdef Py_ssize_t* sizes
    cdef Py_ssize_t n_line, n_ops, holes_line, holes_canonical

    def __cinit__(self):
        self.slots, self.texts, self.sizes = NULL, NULL, NULL

    def __init__(self, ops_line, ops_canonical, Py_ssize_t hands, Py_ssize_t consts, words, cards,
                 const uint8_t[::1] hand_class, const uint16_t[::1] hand_rank, const uint8_t[::1] hand_pp):
        cdef Py_ssize_t k
        if self.slots != NULL:
            raise TypeError("a LineTemplate is made once")
        if not 2 <= hands <= SG_MAX_POSITIONS + 1 or not 0 <= consts <= _MOST_CONSTS:
            raise ValueError(f"a table of 2 to {SG_MAX_POSITIONS + 1} hands, and at most {_MOST_CONSTS} constants")
        if hand_class.shape[0] != 140608 or hand_rank.shape[0] != 140608 or hand_pp.shape[0] != 140608:
            raise ValueError("a class, rank and category for each of the 140,608 hands")
        for k in range(140608):
            if hand_pp[k] >= 8:
                raise ValueError(f"hand {k}: a category {hand_pp[k]}")
        both = []
        for ops in (ops_line, ops_canonical):
            out = tuple((pair[0], int(pair[1])) for pair in ops)
            if not out:
                raise ValueError("an empty template")
            for i, (literal, slot) in enumerate(out):
                if type(literal) is not bytes:
                    raise TypeError("a template's literal is bytes")
                if not (slot in (_SLOT_ROUND, _SLOT_IN_SHOE, _SLOT_CUT, _SLOT_LAST, _SLOT_HEAD, _SLOT_BURNED,
                                 _SLOT_HOLE, _SLOT_END) or _SLOT_CONST <= slot < _SLOT_CONST + consts
                        or _SLOT_HAND <= slot < _SLOT_HAND + hands or _SLOT_WIN + 1 <= slot < _SLOT_WIN + hands):
                    raise ValueError(f"a template's slot {slot} is not one this table has")
                if (slot == _SLOT_END) != (i == len(out) - 1):
                    raise ValueError("a template ends with its one slot END")
            both.append(out)
        self.words = _checked_texts(words, 3, "words")
        self.cards = _checked_texts(cards, 52, "cards")
        self.arrays = (hand_class, hand_rank, hand_pp)
        self.hand_class, self.hand_rank, self.hand_pp = hand_class, hand_rank, hand_pp
        self.ops_line, self.ops_canonical = both
        self.hands, self.consts = hands, consts
        self.holes_line = sum(1 for _, slot in both[0] if slot == _SLOT_HOLE)
        self.holes_canonical = sum(1 for _, slot in both[1] if slot == _SLOT_HOLE)
        self.n_line = len(both[0])
        self.n_ops = self.n_line + len(both[1])
        self.slots = <int*>malloc(self.n_ops * sizeof(int))
        self.texts = <const char**>malloc(self.n_ops * sizeof(char*))
        self.sizes = <Py_ssize_t*>malloc(self.n_ops * sizeof(Py_ssize_t))
        if self.slots == NULL or self.texts == NULL or self.sizes == NULL:
            raise MemoryError()
        for k, (literal, slot) in enumerate(both[0] + both[1]):  # (the literals are held by the tuples)
            self.slots[k], self.texts[k], self.sizes[k] = slot, PyBytes_AS_STRING(literal), PyBytes_GET_SIZE(literal)

    def __dealloc__(self):
        free(self.slots)
        free(self.texts)
        free(self.sizes)


cdef inline void _put_u32(char* at, uint32_t value) noexcept nogil:
    at[0] = <char>(value & 255)
    at[1] = <char>((value >> 8) & 255)
    at[2] = <char>((value >> 16) & 255)
    at[3] = <char>(value >> 24)


cdef inline uint32_t _get_u32(const char* at) noexcept nogil:
    cdef const uint8_t* u = <const uint8_t*>at
    return u[0] | (<uint32_t>u[1] << 8) | (<uint32_t>u[2] << 16) | (<uint32_t>u[3] << 24)


@cython.boundscheck(False)
@cython.wraparound(False)
cdef Py_ssize_t _checked_rounds(LineTemplate template, tuple consts, const uint8_t[:, :, ::1] hands,
                                const uint8_t[:, ::1] burned, const uint8_t[::1] burn_counts,
                                const uint8_t[::1] head_cards, const uint16_t[::1] round_in_shoe,
                                const uint8_t[::1] last, const uint16_t[::1] cut_card, tuple tail_texts,
                                uint8_t[:, ::1] classes, uint16_t[:, ::1] ranks, uint8_t[:, ::1] pps) except -2:
    """render_rounds' arguments checked, every index it reads among them, and each hand's
    class, rank and category written: -1, or the first hand with no text (as it returns)."""
    cdef Py_ssize_t rounds = hands.shape[0], n = hands.shape[1], i, p, j, c, key, n_tails = len(tail_texts)
    if template.slots == NULL:
        raise ValueError("a LineTemplate not made")
    if hands.shape[2] != 3 or n != template.hands:
        raise ValueError(f"hands: an (n, {template.hands}, 3) array of the template's table")
    if (classes.shape[0] != rounds or classes.shape[1] != n or ranks.shape[0] != rounds or ranks.shape[1] != n
            or pps.shape[0] != rounds or pps.shape[1] != n or burned.shape[0] != rounds
            or burn_counts.shape[0] != rounds or head_cards.shape[0] != rounds or round_in_shoe.shape[0] != rounds
            or last.shape[0] != rounds or cut_card.shape[0] != rounds):
        raise ValueError("the round arrays differ in length")
    if len(consts) != template.consts:
        raise ValueError(f"{template.consts} constants, not {len(consts)}")
    if template.holes_line + 1 + template.holes_canonical + 1 > 256:
        raise ValueError("at most 254 holes")
    for value in consts:
        if type(value) is not bytes:
            raise TypeError("a constant is bytes")
    for i in range(rounds):
        if burn_counts[i] > burned.shape[1]:
            raise ValueError(f"round {i}: {burn_counts[i]} cards burned where {burned.shape[1]} fit")
        for j in range(burn_counts[i]):
            if burned[i, j] >= 52:
                raise ValueError(f"round {i}: a burned card code {burned[i, j]}")
        if head_cards[i] >= 52 and head_cards[i] != _NO_CARD:
            raise ValueError(f"round {i}: a head card code {head_cards[i]}")
        for p in range(n):
            for j in range(3):
                if hands[i, p, j] >= 52:
                    raise ValueError(f"round {i}: a card code {hands[i, p, j]}")
            key = hands[i, p, 0] * 2704 + hands[i, p, 1] * 52 + hands[i, p, 2]
            classes[i, p], ranks[i, p], pps[i, p] = (template.hand_class[key], template.hand_rank[key],
                                                     template.hand_pp[key])
            c = classes[i, p] * 8 + pps[i, p]
            if c >= n_tails or tail_texts[c] is None:
                return i * n + p
            if type(tail_texts[c]) is not bytes:
                raise TypeError(f"a hand's text is bytes, not {type(tail_texts[c]).__name__}")
    return -1


@cython.boundscheck(False)
@cython.wraparound(False)
def render_rounds(LineTemplate template not None, tuple consts not None, const uint8_t[:, :, ::1] hands,
                  const uint8_t[:, ::1] burned, const uint8_t[::1] burn_counts, const uint8_t[::1] head_cards,
                  const uint16_t[::1] round_in_shoe, const uint8_t[::1] last, const uint16_t[::1] cut_card,
                  int64_t first_round, tails, uint8_t[:, ::1] classes, uint16_t[:, ::1] ranks,
                  uint8_t[:, ::1] pps, list out not None):
    """Write each round's line and canonical bytes, as their pieces between the template's
    holes packed in one bytes object (``_logline.pack``), onto ``out``, and each hand's
    class, rank and category into ``classes``, ``ranks`` and ``pps``; ``tails[class * 8 +
    category]`` is the text after a hand's cards (bytes, or None where none is known yet).
    Returns -1, or where a hand has no text (``round * hands + position``: nothing is
    written onto ``out`` then)."""
    cdef tuple tail_texts = tuple(tails)  # (a copy: what is checked is what is read)
    cdef Py_ssize_t rounds = hands.shape[0], n = hands.shape[1], i, p, j, k, first, stop, at, header
    cdef list card_texts = template.cards, word_texts = template.words
    cdef uint32_t lengths[256]
    cdef int n_pieces, slot, d, which
    cdef _Text text
    missing = _checked_rounds(template, consts, hands, burned, burn_counts, head_cards, round_in_shoe, last, cut_card,
                              tail_texts, classes, ranks, pps)
    if missing >= 0:
        return missing
    cdef _Text hand_text  # the round's hands, each written once (a line and the canonical bytes hold them alike)
    cdef Py_ssize_t hand_at[SG_MAX_POSITIONS + 2]
    text.data, text.size, text.used = NULL, 0, 0
    hand_text.data, hand_text.size, hand_text.used = NULL, 0, 0
    header = 4 * (2 + template.holes_line + 1 + template.holes_canonical + 1)
    try:
        for i in range(rounds):
            hand_text.used = 0
            for p in range(n):
                hand_at[p] = hand_text.used
                _put(&hand_text, b'{"cards":[')
                _put(&hand_text, card_texts[hands[i, p, 0]])
                _put(&hand_text, b",")
                _put(&hand_text, card_texts[hands[i, p, 1]])
                _put(&hand_text, b",")
                _put(&hand_text, card_texts[hands[i, p, 2]])
                _put(&hand_text, b"]")
                _put(&hand_text, tail_texts[classes[i, p] * 8 + pps[i, p]])
            hand_at[n] = hand_text.used
            _grow(&text, header)
            text.used = header
            n_pieces = 0
            for which in range(2):
                if which == 0:
                    first, stop = 0, template.n_line
                else:
                    first, stop = template.n_line, template.n_ops
                at = text.used
                for k in range(first, stop):
                    _grow(&text, template.sizes[k])
                    memcpy(text.data + text.used, template.texts[k], template.sizes[k])
                    text.used += template.sizes[k]
                    slot = template.slots[k]
                    if slot == _SLOT_END:
                        break
                    if slot == _SLOT_HOLE:
                        lengths[n_pieces] = <uint32_t>(text.used - at)
                        n_pieces += 1
                        at = text.used
                    elif slot == _SLOT_ROUND:
                        _put_int(&text, first_round + i)
                    elif slot == _SLOT_IN_SHOE:
                        _put_int(&text, round_in_shoe[i])
                    elif slot == _SLOT_CUT:
                        if cut_card[i]:
                            _put_int(&text, cut_card[i])
                        else:
                            _put(&text, b"null")
                    elif slot == _SLOT_LAST:
                        _put(&text, b"true" if last[i] else b"false")
                    elif slot == _SLOT_HEAD:
                        _put(&text, b"null" if head_cards[i] == _NO_CARD else card_texts[head_cards[i]])
                    elif slot == _SLOT_BURNED:
                        _put(&text, b"[")
                        for j in range(burn_counts[i]):
                            if j:
                                _put(&text, b",")
                            _put(&text, card_texts[burned[i, j]])
                        _put(&text, b"]")
                    elif slot < _SLOT_HAND:
                        _put(&text, consts[slot - _SLOT_CONST])
                    elif slot < _SLOT_WIN:
                        p = slot - _SLOT_HAND
                        _grow(&text, hand_at[p + 1] - hand_at[p])
                        memcpy(text.data + text.used, hand_text.data + hand_at[p], hand_at[p + 1] - hand_at[p])
                        text.used += hand_at[p + 1] - hand_at[p]
                    else:
                        p = slot - _SLOT_WIN
                        d = 0 if ranks[i, p] < ranks[i, 0] else (1 if ranks[i, p] == ranks[i, 0] else 2)
                        _put(&text, word_texts[d])
                lengths[n_pieces] = <uint32_t>(text.used - at)
                n_pieces += 1
                if which == 0:
                    _put_u32(text.data, <uint32_t>n_pieces)
                else:
                    _put_u32(text.data + 4, <uint32_t>(n_pieces - template.holes_line - 1))
            for k in range(n_pieces):
                _put_u32(text.data + 8 + 4 * k, lengths[k])
            out.append(PyBytes_FromStringAndSize(text.data, text.used))
    finally:
        free(text.data)
        free(hand_text.data)
    return -1


cdef bint _same(const char* at, Py_ssize_t left, const char* piece, Py_ssize_t n) noexcept:
    return n <= left and memcmp(at, piece, n) == 0


cdef bint _same_bytes(const char* at, Py_ssize_t left, object piece) noexcept:
    return _same(at, left, PyBytes_AS_STRING(piece), PyBytes_GET_SIZE(piece))


cdef const char* _HEX_DIGITS = "0123456789abcdef"


cdef bint _hex_of(const char* at, bytes digest) noexcept:
    """``at`` holds the 64 lower-case hex digits of a 32-byte ``digest``."""
    cdef const uint8_t* raw = <const uint8_t*>PyBytes_AS_STRING(digest)
    cdef Py_ssize_t k
    if PyBytes_GET_SIZE(digest) != 32:
        return False
    for k in range(32):
        if at[2 * k] != _HEX_DIGITS[raw[k] >> 4] or at[2 * k + 1] != _HEX_DIGITS[raw[k] & 15]:
            return False
    return True


cdef bint _quoted_hex(const char* at, Py_ssize_t left) noexcept:
    """``at`` holds a quoted 64-digit lower-case hex digest (a record's hash or HMAC)."""
    cdef Py_ssize_t k
    if left < _QUOTED_HEX or at[0] != b'"' or at[_QUOTED_HEX - 1] != b'"':
        return False
    for k in range(1, _QUOTED_HEX - 1):
        if not (b"0" <= at[k] <= b"9" or b"a" <= at[k] <= b"f"):
            return False
    return True


cdef tuple _pieces(bytes rendered, tuple canonical_owns, tuple line_owns, int mac):
    """A rendered round's header checked against its holes (``mac``: 0 no HMAC, else one):
    the offset of its first piece, and its canonical bytes (its canonical pieces with
    ``canonical_owns`` between them)."""
    cdef const char* packed = PyBytes_AS_STRING(rendered)
    cdef Py_ssize_t size = PyBytes_GET_SIZE(rendered), n_line, n_canonical, total = 0, i, n, data
    cdef Py_ssize_t n_own_line = len(line_owns), n_own_canonical = len(canonical_owns)
    cdef const char* piece
    cdef char* to
    cdef bytes canonical
    if size < 8:
        raise ValueError("not a rendered round")
    n_line, n_canonical = _get_u32(packed), _get_u32(packed + 4)
    if n_line > 256 or n_canonical > 256 or size < 8 + 4 * (n_line + n_canonical):
        raise ValueError("not a rendered round")
    data = 8 + 4 * (n_line + n_canonical)
    for i in range(n_line + n_canonical):
        total += _get_u32(packed + 8 + 4 * i)
    if data + total != size:
        raise ValueError("not a rendered round")
    if n_canonical != n_own_canonical + 1 or n_line != n_own_line + 2 + (mac != 0) or not 0 <= mac <= 2:
        raise ValueError("pieces and holes do not match")
    for piece_object in canonical_owns + line_owns:
        if type(piece_object) is not bytes:
            raise TypeError("a piece is bytes")
    total = 0  # the canonical bytes
    for i in range(n_canonical):
        total += _get_u32(packed + 8 + 4 * (n_line + i))
    for i in range(n_own_canonical):
        total += PyBytes_GET_SIZE(canonical_owns[i])
    canonical = PyBytes_FromStringAndSize(NULL, total)
    to = PyBytes_AS_STRING(canonical)
    piece = packed + data
    for i in range(n_line):
        piece += _get_u32(packed + 8 + 4 * i)
    for i in range(n_canonical):
        n = _get_u32(packed + 8 + 4 * (n_line + i))
        memcpy(to, piece, n)
        to += n
        piece += n
        if i < n_own_canonical:
            n = PyBytes_GET_SIZE(canonical_owns[i])
            memcpy(to, PyBytes_AS_STRING(canonical_owns[i]), n)
            to += n
    return data, canonical


cdef inline void _put_quoted_hex(char* to, bytes digest) noexcept:
    """Write a 32-byte ``digest`` as a quoted 64-digit lower-case hex text (66 bytes)."""
    cdef const uint8_t* raw = <const uint8_t*>PyBytes_AS_STRING(digest)
    cdef Py_ssize_t k
    to[0] = b'"'
    for k in range(32):
        to[1 + 2 * k] = _HEX_DIGITS[raw[k] >> 4]
        to[2 + 2 * k] = _HEX_DIGITS[raw[k] & 15]
    to[_QUOTED_HEX - 1] = b'"'


def write_line(bytes rendered not None, tuple canonical_owns not None, tuple line_owns not None, key):
    """Write a round's record: ``(line, canonical, hash)``, its line (without newline), its
    canonical bytes and its hash (64 hex digits); ``check_line``'s writer.

    ``rendered`` is the round's pieces (``render_rounds``): the canonical bytes are its
    canonical pieces with ``canonical_owns`` between them, the hash their SHA-256; the
    line is its line pieces with ``line_owns`` between them, then the quoted hash, then
    (``key``: bytes) the quoted HMAC of the canonical bytes under ``key`` (None: no HMAC)."""
    cdef bytes canonical = None, digest, mac_digest = None, line
    cdef const char* packed = PyBytes_AS_STRING(rendered)
    cdef Py_ssize_t data, n_line, i, n, total = 0, n_own_line = len(line_owns)
    cdef const char* piece
    cdef char* to
    if key is not None and type(key) is not bytes:
        raise TypeError("the key is bytes")
    data, canonical = _pieces(rendered, canonical_owns, line_owns, 0 if key is None else 1)
    n_line = _get_u32(packed)
    digest = _hashlib.sha256(canonical).digest()
    if key is not None:
        mac_digest = _hmac_digest(key, canonical, "sha256")
    for i in range(n_line):
        total += _get_u32(packed + 8 + 4 * i)
    for i in range(n_own_line):
        total += PyBytes_GET_SIZE(line_owns[i])
    total += _QUOTED_HEX * (n_line - 1 - n_own_line)
    line = PyBytes_FromStringAndSize(NULL, total)
    to = PyBytes_AS_STRING(line)
    piece = packed + data
    for i in range(n_line):
        n = _get_u32(packed + 8 + 4 * i)
        memcpy(to, piece, n)
        to += n
        piece += n
        if i < n_own_line:
            n = PyBytes_GET_SIZE(line_owns[i])
            memcpy(to, PyBytes_AS_STRING(line_owns[i]), n)
            to += n
        elif i < n_line - 1:
            _put_quoted_hex(to, digest if i == n_own_line else mac_digest)
            to += _QUOTED_HEX
    return line, canonical, digest.hex()


def check_line(bytes line not None, bytes rendered not None, tuple canonical_owns not None,
               tuple line_owns not None, int mac, key):
    """Accept ``line`` as a round's record (its hash, quoted: the line's ``"…"``) or not
    (``None``).

    ``rendered`` is the round's pieces (``render_rounds``, packed as ``_logline.pack``
    says): the canonical bytes are its canonical pieces with ``canonical_owns`` between
    them, the hash their SHA-256; the line must be its line pieces with ``line_owns``
    between them, then the quoted hash, then (``mac`` 1) the quoted HMAC of the canonical
    bytes under ``key``, or (``mac`` 2) a quoted HMAC left unchecked but 64 hex digits
    (``mac`` 0: no HMAC). ``write_line`` writes the line it accepts."""
    cdef const char* packed = PyBytes_AS_STRING(rendered)
    cdef Py_ssize_t n_line, i, left, n, data
    cdef Py_ssize_t n_own_line = len(line_owns)
    cdef const char* at
    cdef const char* piece
    cdef bytes canonical = None
    digest = None
    if not 0 <= mac <= 2:
        raise ValueError("pieces and holes do not match")
    data, canonical = _pieces(rendered, canonical_owns, line_owns, mac)
    if mac == 1 and type(key) is not bytes:
        raise TypeError("the key is bytes")
    n_line = _get_u32(packed)
    at, left = PyBytes_AS_STRING(line), PyBytes_GET_SIZE(line)
    piece = packed + data
    for i in range(n_line):  # the text up to the hash first: most changed lines fail there, unhashed
        n = _get_u32(packed + 8 + 4 * i)
        if not _same(at, left, piece, n):
            return None
        at += n
        left -= n
        piece += n
        if i < n_own_line:
            if not _same_bytes(at, left, line_owns[i]):
                return None
            n = PyBytes_GET_SIZE(line_owns[i])
        elif i == n_own_line:  # the hash
            if left < _QUOTED_HEX or at[0] != b'"' or at[_QUOTED_HEX - 1] != b'"' or \
                    not _hex_of(at + 1, _hashlib.sha256(canonical).digest()):
                return None
            digest = PyBytes_FromStringAndSize(at, _QUOTED_HEX)  # (the quoted hash: the line's own text)
            n = _QUOTED_HEX
        elif i < n_line - 1:  # the HMAC
            if mac == 1:
                if left < _QUOTED_HEX or at[0] != b'"' or at[_QUOTED_HEX - 1] != b'"' or \
                        not _hex_of(at + 1, _hmac_module.new(key, canonical, _hashlib.sha256).digest()):
                    return None
            elif not _quoted_hex(at, left):
                return None
            n = _QUOTED_HEX
        else:
            n = 0
        at += n
        left -= n
    if left != 0:
        return None
    return digest
