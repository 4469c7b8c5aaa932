#!/usr/bin/python3
# hostile.py GOOD.img CASE OUT.img: a copy of the compiled catalog GOOD.img
# (written by pdwiz compile-catalog) with one field of it made hostile, the
# header's magic, format and source id kept and its checksum (and size)
# recomputed, so that only what the loader checks past the checksum can
# tell. hostile.py --list: the cases, one per line. For tests/catimg/run.sh.
#
# The layout read here is src/core/catimg.c's (struct img_hdr, the pointer
# fields as addresses at IMG_BASE, the relocation list) and catalog.h's (struct catalog,
# struct commit_ref, struct rule, struct option) on a 64-bit little-endian
# build.
import struct
import sys

HDR = 184                       # sizeof(struct img_hdr)
H_SIZE, H_SUM, H_CAT = 48, 56, 64
H_RELOCS, H_NRELOCS, H_STRTAB, H_STRCAP = 72, 80, 88, 96
H_XNODES, H_XNNODES = 120, 128  # the per-server rules' expressions
H_XKIDS, H_XNKIDS = 136, 144    # (struct img_exprs)
C_OPTS, C_NOPTS, C_RULES, C_NRULES = 0, 8, 16, 24
C_NDRULES, C_COMMITS, C_NCOMMITS = 40, 64, 72
C_HASH, C_HCAP = 104, 112
C_GROUPS, C_NGROUPS = 184, 192  # SGLang's groups of the options
OPT_SIZE, OPT_GROUP = 128, 120  # struct option; its group (an index)
RULE_SIZE, RULE_WHEN = 216, 32  # struct rule; its when
E_NAME, X_SLOT, X_KIDS, X_NKIDS = 1, 24, 32, 40    # struct expr
X_SIZE = 48
M64 = (1 << 64) - 1
BASE = 0x3e0000000000           # IMG_BASE: where the image's pointers point


def sum64(p):
    """src/core/catimg.c sum64()."""
    P = 0x100000001b3
    s, t = [0] * 8, [0] * 8
    n = len(p)
    i = 0
    while i + 64 <= n:
        w = struct.unpack_from("<8Q", p, i)
        for j in range(8):
            s[j] = (s[j] + w[j]) & M64
            t[j] = (t[j] + s[j]) & M64
        i += 64
    r = 0x9e3779b97f4a7c15
    for v in s + t:
        r = ((r ^ v) * P) & M64
    while i < n:
        r = ((r ^ p[i]) * P) & M64
        i += 1
    return r ^ n


class Img:
    def __init__(self, data):
        self.b = bytearray(data)

    def u64(self, off):
        return struct.unpack_from("<Q", self.b, off)[0]

    def set64(self, off, v):
        struct.pack_into("<Q", self.b, off, v & M64)

    def u32(self, off):
        return struct.unpack_from("<I", self.b, off)[0]

    def set32(self, off, v):
        struct.pack_into("<I", self.b, off, v & 0xffffffff)

    def cat(self, field):
        return self.u64(self.u64(H_CAT) + field)

    def ptr(self, off):
        """The offset the pointer at off points to (0: NULL)."""
        v = self.u64(off)
        return v - BASE if v else 0

    def cat_ptr(self, field):
        return self.ptr(self.u64(H_CAT) + field)

    def set_cat(self, field, v):
        self.set64(self.u64(H_CAT) + field, v)

    def relocs(self):
        r, n = self.u64(H_RELOCS), self.u64(H_NRELOCS)
        return [r + 8 * i for i in range(n)]

    def reloc_index(self, field):
        for k, at in enumerate(self.relocs()):
            if self.u64(at) == field:
                return at
        raise SystemExit("hostile.py: field %d is not relocated" % field)

    def append(self, data):
        off = len(self.b)
        self.b += data
        return off

    def seal(self):
        self.set64(H_SIZE, len(self.b))
        self.set64(H_SUM, sum64(bytes(self.b[HDR:])))


def first_name_expr(img):
    """The offset of an E_NAME node of a per-server rule's condition."""
    rules = img.cat_ptr(C_RULES)
    for i in range(img.cat(C_NRULES)):
        stack = [img.ptr(rules + i * RULE_SIZE + RULE_WHEN)]
        while stack:
            e = stack.pop()
            if e == 0:
                continue
            if img.u32(e) == E_NAME:
                return e
            kids = img.ptr(e + X_KIDS)
            stack += [img.ptr(kids + 8 * k)
                      for k in range(img.u64(e + X_NKIDS))]
    raise SystemExit("hostile.py: no rule reads an option")


def c_nrules_huge(img):
    img.set_cat(C_NRULES, 1 << 40)


def c_ndrules_huge(img):
    img.set_cat(C_NDRULES, 1 << 40)


def c_ncommits_huge(img):
    img.set_cat(C_NCOMMITS, 1 << 40)


def c_rules_past_end(img):
    # A count that would fit, of rules that start 8 bytes before the end.
    img.set_cat(C_RULES, BASE + ((len(img.b) - 8) & ~7))
    img.set_cat(C_NRULES, 1000)


def c_strtab_slots(img):
    # Every string slot of the table intern() adopts, past the file.
    t = img.u64(H_STRTAB)
    for i in range(img.u64(H_STRCAP)):
        if img.u32(t + 4 * i) != 0:
            img.set32(t + 4 * i, 0xfffffff0)


def c_reloc_skips_pointer(img):
    # The relocation of commits[0].shortname moved to nopts: the pointer
    # stays an offset, nopts becomes an address.
    field = img.cat_ptr(C_COMMITS)
    img.set64(img.reloc_index(field), img.u64(H_CAT) + C_NOPTS)


def c_cat_offset_wraps(img):
    # cat + sizeof(struct catalog) wraps around to a small number.
    img.set64(H_CAT, (1 << 64) - 8)


def c_reloc_offset_wraps(img):
    # A relocation whose field + 8 wraps around.
    img.set64(img.relocs()[0], (1 << 64) - 8)


def c_nopts_huge(img):
    img.set_cat(C_NOPTS, 1 << 50)


def c_hcap_huge(img):
    img.set_cat(C_HCAP, 1 << 40)


def c_expr_slot(img):
    img.set32(first_name_expr(img) + X_SLOT, 1 << 30)


def c_option_name_null(img):
    # opts[0].name NULL: its relocation dropped (the last one takes its
    # place), the field zeroed.
    field = img.cat_ptr(C_OPTS)
    at, last = img.reloc_index(field), img.relocs()[-1]
    img.set64(at, img.u64(last))
    img.set64(H_NRELOCS, img.u64(H_NRELOCS) - 1)
    img.set64(field, 0)


def c_strtab_full(img):
    # No empty slot: a string not in the table is looked for forever.
    t = img.u64(H_STRTAB)
    some = next(img.u32(t + 4 * i) for i in range(img.u64(H_STRCAP))
                if img.u32(t + 4 * i) != 0)
    for i in range(img.u64(H_STRCAP)):
        if img.u32(t + 4 * i) == 0:
            img.set32(t + 4 * i, some)


def c_string_unterminated(img):
    # commits[0].shortname: 8 bytes at the end of the file, no NUL after.
    field = img.cat_ptr(C_COMMITS)
    img.set64(field, BASE + img.append(b"AAAAAAAA"))


def c_option_group(img):
    # The last option's group past the groups (an index, not a pointer).
    last = img.cat_ptr(C_OPTS) + (img.cat(C_NOPTS) - 1) * OPT_SIZE
    img.set32(last + OPT_GROUP, img.cat(C_NGROUPS))


def c_ngroups_huge(img):
    img.set_cat(C_NGROUPS, 1 << 40)


def first_parent(img, nkids=1):
    """The offset of the first node of the region with nkids kids."""
    nodes = img.u64(H_XNODES)
    for i in range(img.u64(H_XNNODES)):
        if img.u64(nodes + i * X_SIZE + X_NKIDS) >= nkids:
            return nodes + i * X_SIZE
    raise SystemExit("hostile.py: no expression has kids")


def c_expr_kid_cycle(img):
    # A node its own kid: a cycle the evaluator would follow for ever.
    e = first_parent(img)
    img.set64(img.ptr(e + X_KIDS), BASE + e)


def c_expr_kid_mid_node(img):
    # A kid pointing 8 bytes into the node before its parent.
    e = first_parent(img)
    img.set64(img.ptr(e + X_KIDS), BASE + e - X_SIZE + 8)


def c_expr_kids_past_region(img):
    # A node's two kids the last entry of the kids array and the 8 bytes
    # after it.
    e = first_parent(img, 2)
    last = img.u64(H_XKIDS) + (img.u64(H_XNKIDS) - 1) * 8
    img.set64(e + X_KIDS, BASE + last)


def c_rule_when_outside(img):
    # The first rule's condition a node of no region: the header's own
    # copy of the first node of the region, appended to the file.
    rules = img.cat_ptr(C_RULES)
    when = img.ptr(rules + RULE_WHEN)
    copy = img.append(bytes(img.b[when:when + X_SIZE]))
    img.set64(rules + RULE_WHEN, BASE + copy)


def c_xnnodes_huge(img):
    img.set64(H_XNNODES, 1 << 50)


CASES = [
    ("nrules-huge", c_nrules_huge),
    ("ndrules-huge", c_ndrules_huge),
    ("ncommits-huge", c_ncommits_huge),
    ("rules-past-end", c_rules_past_end),
    ("strtab-slots", c_strtab_slots),
    ("reloc-skips-pointer", c_reloc_skips_pointer),
    ("cat-offset-wraps", c_cat_offset_wraps),
    ("reloc-offset-wraps", c_reloc_offset_wraps),
    ("nopts-huge", c_nopts_huge),
    ("hcap-huge", c_hcap_huge),
    ("expr-slot", c_expr_slot),
    ("option-name-null", c_option_name_null),
    ("strtab-full", c_strtab_full),
    ("string-unterminated", c_string_unterminated),
    ("option-group", c_option_group),
    ("ngroups-huge", c_ngroups_huge),
    ("expr-kid-cycle", c_expr_kid_cycle),
    ("expr-kid-mid-node", c_expr_kid_mid_node),
    ("expr-kids-past-region", c_expr_kids_past_region),
    ("rule-when-outside", c_rule_when_outside),
    ("xnnodes-huge", c_xnnodes_huge),
]


def main():
    if sys.argv[1:] == ["--list"]:
        for name, _ in CASES:
            print(name)
        return
    if len(sys.argv) != 4:
        raise SystemExit("usage: hostile.py GOOD.img CASE OUT.img | --list")
    fn = dict(CASES).get(sys.argv[2])
    if fn is None:
        raise SystemExit("hostile.py: no case %s" % sys.argv[2])
    with open(sys.argv[1], "rb") as f:
        img = Img(f.read())
    if img.b[:7] != b"PDWZCAT" or img.u64(H_SUM) != sum64(bytes(img.b[HDR:])):
        raise SystemExit("hostile.py: %s is not a sound image" % sys.argv[1])
    fn(img)
    img.seal()
    with open(sys.argv[3], "wb") as f:
        f.write(img.b)


main()
