/*
 * Stripping tensor data from a serialised ONNX model before protobuf-c
 * decodes it (see onnx_wire.h).  Fields are scanned as protobuf-c scans
 * them; a message the walk descends into is rewritten with a new length
 * prefix, every other field is copied byte for byte.
 */
/* madvise(MADV_NOHUGEPAGE) and MAP_ANONYMOUS are not in POSIX. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "arith.h"
#include "onnx.pb-c.h"
#include "onnx_load.h"
#include "onnx_wire.h"
#include "xalloc.h"

/* Messages the walk descends into. */
enum { M_MODEL, M_GRAPH, M_NODE, M_ATTR, M_TENSOR, M_FUNC };

enum { WT_VARINT = 0, WT_64 = 1, WT_LEN = 2, WT_32 = 5 };

/* Subgraphs nest through attributes; deeper ones are copied whole. */
#define MAXDEPTH	64

/*
 * The bytes walked.  A file is read on demand into a sparse copy of its
 * own size, in blocks of BLOCK bytes, so the data fields skipped are
 * never read and their pages never touched; have[] says which blocks
 * are in.  have NULL: everything is in memory.
 */
#define BLOCK	16384

struct src {
	const uint8_t	*base;
	size_t		 len;
	int		 fd;
	uint8_t		*have;
	int		 err;		/* errno of a failed read, or 0 */
};

struct out {
	uint8_t	*p;
	size_t	 n, cap;
};

/* One field as protobuf-c scans it. */
struct field {
	uint32_t	 num;
	int		 wt;
	const uint8_t	*start;		/* its tag */
	const uint8_t	*tagend;
	const uint8_t	*val;		/* payload (after the length prefix) */
	const uint8_t	*end;
	uint64_t	 v;		/* varint value */
};

static void
put(struct out *o, const void *s, size_t n)
{
	if (n > o->cap - o->n) {
		size_t cap = o->cap ? o->cap : 4096;

		while (n > cap - o->n)
			cap *= 2;
		o->p = xreallocarray(o->p, cap, 1);
		o->cap = cap;
	}
	if (n > 0)
		memcpy(o->p + o->n, s, n);
	o->n += n;
}

/* Make [p, p + n) of s readable; -1 (s->err set) on a read error. */
static int
need(struct src *s, const uint8_t *p, size_t n)
{
	size_t b, e, i, off, want, got;
	ssize_t r;

	if (s->have == NULL || n == 0)
		return 0;
	b = (size_t)(p - s->base) / BLOCK;
	e = ((size_t)(p - s->base) + n - 1) / BLOCK;
	for (i = b; i <= e; i++) {
		if (s->have[i])
			continue;
		for (b = i; i + 1 <= e && !s->have[i + 1]; i++)
			;
		off = b * BLOCK;
		want = (i + 1) * BLOCK < s->len ? (i + 1) * BLOCK - off :
		    s->len - off;
		for (got = 0; got < want; got += (size_t)r) {
			r = pread(s->fd, (uint8_t *)s->base + off + got,
			    want - got, (off_t)(off + got));
			if (r < 0 && errno == EINTR) {
				r = 0;
				continue;
			}
			if (r <= 0) {
				s->err = r < 0 ? errno : EIO;
				return -1;
			}
		}
		memset(s->have + b, 1, i - b + 1);
	}
	return 0;
}

/* Length of the varint at p (at most 10 bytes), 0 if it does not end. */
static size_t
varint(const uint8_t *p, const uint8_t *end, uint64_t *v)
{
	size_t i, max = (size_t)(end - p) < 10 ? (size_t)(end - p) : 10;
	uint64_t r = 0;

	for (i = 0; i < max; i++) {
		r |= (uint64_t)(p[i] & 0x7f) << (7 * i);
		if ((p[i] & 0x80) == 0) {
			*v = r;
			return i + 1;
		}
	}
	return 0;
}

/*
 * Next field of [*pp, end): 1 and *f, 0 at the end, -1 when protobuf-c
 * would reject it (tag of more than 5 bytes or field number 0, varint
 * of more than 10 bytes, length prefix of more than 5 bytes, above
 * INT_MAX or past the end, a group or an unknown wire type).
 */
static int
next(struct src *s, const uint8_t **pp, const uint8_t *end, struct field *f)
{
	const uint8_t *p = *pp;
	size_t i, max, k;
	uint64_t len;

	if (p >= end)
		return 0;
	/* A tag and a varint or length prefix: at most 15 bytes. */
	if (need(s, p, (size_t)(end - p) < 15 ? (size_t)(end - p) : 15) < 0)
		return -1;
	f->start = p;
	if ((p[0] & 0xf8) == 0)
		return -1;
	f->wt = p[0] & 7;
	f->num = (p[0] & 0x7f) >> 3;
	max = (size_t)(end - p) < 5 ? (size_t)(end - p) : 5;
	for (i = 0; p[i] & 0x80; ) {
		if (++i == max)
			return -1;
		f->num |= (uint32_t)(p[i] & 0x7f) << (4 + 7 * (i - 1));
	}
	p += i + 1;
	f->tagend = p;
	switch (f->wt) {
	case WT_VARINT:
		if ((k = varint(p, end, &f->v)) == 0)
			return -1;
		f->val = p;
		p += k;
		break;
	case WT_64:
	case WT_32:
		k = f->wt == WT_64 ? 8 : 4;
		if ((size_t)(end - p) < k)
			return -1;
		f->val = p;
		p += k;
		break;
	case WT_LEN:
		max = (size_t)(end - p) < 5 ? (size_t)(end - p) : 5;
		len = 0;
		for (i = 0; i < max; i++) {
			len |= (uint64_t)(p[i] & 0x7f) << (7 * i);
			if ((p[i] & 0x80) == 0)
				break;
		}
		if (i == max || len > INT_MAX ||
		    len > (uint64_t)(end - p) - (i + 1))
			return -1;
		f->val = p + i + 1;
		f->v = len;
		p = f->val + len;
		break;
	default:
		return -1;
	}
	f->end = p;
	*pp = p;
	return 1;
}

/* Message kind of field num of a kind message when it is descended into. */
static int
child(int kind, uint32_t num)
{
	switch (kind) {
	case M_MODEL:
		return num == 7 ? M_GRAPH : num == 25 ? M_FUNC : -1;
	case M_GRAPH:
		return num == 1 ? M_NODE : num == 5 ? M_TENSOR : -1;
	case M_NODE:
		return num == 5 ? M_ATTR : -1;
	case M_ATTR:
		return num == 5 || num == 10 ? M_TENSOR :
		    num == 6 || num == 11 ? M_GRAPH : -1;
	case M_FUNC:
		return num == 7 ? M_NODE : -1;
	default:
		return -1;
	}
}

/*
 * Whether f is one of the data fields of a TensorProto in a form that
 * protobuf-c accepts (so leaving it out loses nothing but the values):
 * float_data 4, int32_data 5, string_data 6, int64_data 7, raw_data 9,
 * double_data 10, uint64_data 11, packed or not.
 */
static int
isdata(struct src *s, const struct field *f)
{
	const uint8_t *p;
	uint64_t v;
	size_t k;

	switch (f->num) {
	case 4:
		return f->wt == WT_32 || (f->wt == WT_LEN && f->v % 4 == 0);
	case 10:
		return f->wt == WT_64 || (f->wt == WT_LEN && f->v % 8 == 0);
	case 6: case 9:
		return f->wt == WT_LEN;
	case 5: case 7: case 11:
		if (f->wt == WT_VARINT)
			return 1;
		if (f->wt != WT_LEN)
			return 0;
		/* Packed varints: each must end within 10 bytes. */
		if (need(s, f->val, f->v) < 0)
			return 0;
		for (p = f->val; p < f->end; p += k)
			if ((k = varint(p, f->end, &v)) == 0)
				return 0;
		return 1;
	default:
		return 0;
	}
}

/*
 * Whether the loader would keep the values of the TensorProto [p, end)
 * (tensor_from_proto: known element count within onnx_keepval, a type
 * of fixed size, data not external).  A tensor with invalid dims is an
 * error there before its data is looked at, so it needs none either.
 * When unsure (a field protobuf-c will reject), keep.
 */
static int
keeps(struct src *s, const uint8_t *p, const uint8_t *end)
{
	int64_t dims[ONNX_MAXRANK], n;
	int rank = 0, extloc = 0, extdata = 0;
	int32_t dtype = DT_UNDEF;
	struct field f;
	const uint8_t *q;
	uint64_t v;
	size_t k;
	int r;

	while ((r = next(s, &p, end, &f)) > 0) {
		if (f.num == 1 && f.wt == WT_VARINT) {
			if (rank < ONNX_MAXRANK)
				dims[rank] = (int64_t)f.v;
			rank++;
		} else if (f.num == 1 && f.wt == WT_LEN) {
			if (need(s, f.val, f.v) < 0)
				return 1;
			for (q = f.val; q < f.end; q += k) {
				if ((k = varint(q, f.end, &v)) == 0)
					return 1;
				if (rank < ONNX_MAXRANK)
					dims[rank] = (int64_t)v;
				rank++;
			}
		} else if (f.num == 2 && f.wt == WT_VARINT)
			dtype = (int32_t)(uint32_t)f.v;
		else if (f.num == 14 && f.wt == WT_VARINT)
			extloc = (int32_t)(uint32_t)f.v == 1;	/* EXTERNAL */
		else if (f.num == 13)
			extdata = 1;
		else if (f.num == 1 || f.num == 2 || f.num == 14)
			return 1;	/* wrong wire type: protobuf-c's call */
	}
	if (r < 0)
		return 1;
	if (extloc || extdata || rank > ONNX_MAXRANK)
		return 0;
	for (k = 0; k < (size_t)rank; k++)
		if (dims[k] < 0)
			return 0;
	if (ck_prod(dims, rank, &n) < 0)
		return 0;
	return onnx_keepval(dtype, n) && onnx_dtype_size(dtype) != 0;
}

static int strip(struct src *s, int kind, const uint8_t *p,
    const uint8_t *end, struct out *o, int depth);

/* Field f, a message of kind k, rewritten with a length prefix. */
static int
sub(struct src *s, int k, const struct field *f, struct out *o, int depth)
{
	uint8_t pre[5];
	size_t mark, len, np = 0;

	put(o, f->start, (size_t)(f->tagend - f->start));
	mark = o->n;
	put(o, pre, sizeof(pre));	/* room for the longest prefix */
	if (strip(s, k, f->val, f->end, o, depth + 1) < 0)
		return -1;
	len = o->n - mark - sizeof(pre);
	do {
		pre[np++] = (uint8_t)((len & 0x7f) | (len > 0x7f ? 0x80 : 0));
		len >>= 7;
	} while (len > 0);
	len = o->n - mark - sizeof(pre);
	memcpy(o->p + mark, pre, np);
	memmove(o->p + mark + np, o->p + mark + sizeof(pre), len);
	o->n = mark + np + len;
	return 0;
}

/*
 * The fields of a kind message [p, end) onto o, the data of unkept
 * tensors left out and the messages that may hold such tensors walked.
 * -1 when the bytes do not decode.
 */
static int
strip(struct src *s, int kind, const uint8_t *p, const uint8_t *end,
    struct out *o, int depth)
{
	const uint8_t *q;
	struct field f;
	int r, k, keep = 1, nt = 0;

	if (kind == M_TENSOR)
		keep = keeps(s, p, end);
	if (kind == M_ATTR) {
		/*
		 * protobuf-c merges a repeated optional message field: a t
		 * given twice is one tensor, judged whole; copy it as is.
		 */
		for (q = p; (r = next(s, &q, end, &f)) > 0; )
			nt += f.num == 5 && f.wt == WT_LEN;
		if (r < 0)
			return -1;
	}
	while ((r = next(s, &p, end, &f)) > 0) {
		if (kind == M_TENSOR && f.num == ONNX_WIRE_RAWLEN)
			continue;	/* only ours may say a length */
		if (kind == M_TENSOR && !keep && f.num == 9 && f.wt == WT_LEN) {
			uint8_t tag[10];
			size_t n = 0;
			uint64_t v = (uint64_t)ONNX_WIRE_RAWLEN << 3 | WT_VARINT;

			do {
				tag[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
				v >>= 7;
			} while (v > 0);
			put(o, tag, n);
			n = 0;
			v = f.v;
			do {
				tag[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
				v >>= 7;
			} while (v > 0);
			put(o, tag, n);
			continue;
		}
		if (kind == M_TENSOR && !keep && isdata(s, &f))
			continue;
		k = f.wt == WT_LEN && depth < MAXDEPTH ? child(kind, f.num) : -1;
		if (kind == M_ATTR && f.num == 5 && nt > 1)
			k = -1;
		if (k < 0) {
			if (need(s, f.start, (size_t)(f.end - f.start)) < 0)
				return -1;
			put(o, f.start, (size_t)(f.end - f.start));
		} else if (sub(s, k, &f, o, depth) < 0)
			return -1;
	}
	return r;
}

static uint8_t *
run(struct src *s, size_t *outlen)
{
	struct out o = { NULL, 0, 0 };

	if (strip(s, M_MODEL, s->base, s->base + s->len, &o, 0) < 0) {
		free(o.p);
		return NULL;
	}
	if (o.p == NULL)
		o.p = xmalloc(1);
	*outlen = o.n;
	return o.p;
}

uint8_t *
onnx_wire_strip(const uint8_t *in, size_t len, size_t *outlen)
{
	struct src s = { in, len, -1, NULL, 0 };

	return run(&s, outlen);
}

uint8_t *
onnx_wire_strip_fd(int fd, size_t len, size_t *outlen, int *err)
{
	struct src s = { NULL, len, fd, NULL, 0 };
	uint8_t *r;
	void *map;

	*err = 0;
	/* Anonymous pages cost memory only once written; no huge pages,
	 * which would make each block read cost megabytes. */
	map = mmap(NULL, len ? len : 1, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED) {
		*err = errno;
		return NULL;
	}
	(void)madvise(map, len ? len : 1, MADV_NOHUGEPAGE);
	s.base = map;
	s.have = xcalloc(len / BLOCK + 1, 1);
	r = run(&s, outlen);
	*err = s.err;
	if (s.err != 0) {
		free(r);
		r = NULL;
	}
	free(s.have);
	munmap(map, len ? len : 1);
	return r;
}
