/*
 * Tensor values for the ONNX loader: element sizes of the ONNX data
 * types, the small-tensor rule (onnx_keepval), reading a TensorProto's
 * raw or typed data into a tensor's values, and the value accessors the
 * shape rules and constant folding use, a shape as text.  Part of the
 * loader (with onnx_load.c and onnx_wire.c), so it may see the
 * protobuf-c types.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arith.h"
#include "diag.h"
#include "onnx.pb-c.h"
#include "onnx_load.h"
#include "onnx_wire.h"
#include "xalloc.h"

#define S(s) ((s) != NULL ? (s) : "")

int64_t
tensor_numel(const struct tensor *t)
{
	int64_t n;

	if (ck_prod(t->dims, t->rank, &n) < 0)
		return -1;
	return n;
}

int
tensor_empty(const struct tensor *t)
{
	int i;

	for (i = 0; i < t->rank; i++)
		if (t->dims[i] == 0)
			return 1;
	return 0;
}

int
onnx_dtype_size(int32_t dtype)
{
	switch (dtype) {
	case DT_UINT8: case DT_INT8: case DT_BOOL:
		return 1;
	case DT_UINT16: case DT_INT16: case DT_FLOAT16: case DT_BFLOAT16:
		return 2;
	case DT_FLOAT: case DT_INT32: case DT_UINT32:
		return 4;
	case DT_DOUBLE: case DT_INT64: case DT_UINT64:
		return 8;
	default:
		return 0;
	}
}

int
onnx_dtype_isint(int32_t dtype)
{
	switch (dtype) {
	case DT_UINT8: case DT_INT8: case DT_BOOL: case DT_UINT16:
	case DT_INT16: case DT_INT32: case DT_UINT32: case DT_INT64:
	case DT_UINT64:
		return 1;
	default:
		return 0;
	}
}

int
onnx_keepval(int32_t dtype, int64_t n)
{
	return n >= 0 && n <= (onnx_dtype_isint(dtype) ? ONNX_MAXVAL :
	    ONNX_MAXFVAL);
}

void
tensor_setval(struct tensor *t, int64_t nval)
{
	tensor_dropval(t);
	if (onnx_dtype_isint(t->dtype))
		t->iv = xcalloc(nval > 0 ? (size_t)nval : 1, sizeof(*t->iv));
	else
		t->fv = xcalloc(nval > 0 ? (size_t)nval : 1, sizeof(*t->fv));
	t->nval = nval;
	t->hasval = 1;
}

void
tensor_dropval(struct tensor *t)
{
	free(t->iv);
	free(t->fv);
	t->iv = NULL;
	t->fv = NULL;
	t->hasval = 0;
	t->nval = 0;
}

int64_t
tensor_ival(const struct tensor *t, int64_t i)
{
	double d;

	if (t->iv != NULL)
		return t->iv[i];
	d = t->fv[i];
	if (!(d > -9.2e18 && d < 9.2e18))	/* also NaN */
		return d > 0 ? INT64_MAX : INT64_MIN;
	return (int64_t)d;
}

double
tensor_fval(const struct tensor *t, int64_t i)
{
	return t->iv != NULL ? (double)t->iv[i] : t->fv[i];
}

/* IEEE half and bfloat16 to double. */
static double
half2d(uint16_t h)
{
	int e = (h >> 10) & 0x1f, f = h & 0x3ff;
	double v;

	if (e == 0)
		v = ldexp(f, -24);
	else if (e == 31)
		v = f ? NAN : INFINITY;
	else
		v = ldexp(f + 1024, e - 25);
	return (h & 0x8000) ? -v : v;
}

static double
bf2d(uint16_t h)
{
	uint32_t u = (uint32_t)h << 16;
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

/* Element i of little-endian raw data of type dtype into t's values. */
static void
rawget(struct tensor *t, const uint8_t *p, int64_t i)
{
	int sz = onnx_dtype_size(t->dtype);
	uint64_t u = 0, sign;
	int k;
	float f;
	double d;

	for (k = sz - 1; k >= 0; k--)
		u = u << 8 | p[i * sz + k];
	switch (t->dtype) {
	case DT_FLOAT:
		memcpy(&f, &(uint32_t){ (uint32_t)u }, 4);
		t->fv[i] = f;
		break;
	case DT_DOUBLE:
		memcpy(&d, &u, 8);
		t->fv[i] = d;
		break;
	case DT_FLOAT16:
		t->fv[i] = half2d((uint16_t)u);
		break;
	case DT_BFLOAT16:
		t->fv[i] = bf2d((uint16_t)u);
		break;
	case DT_INT8: case DT_INT16: case DT_INT32:
		/* sz bytes of two's complement, sign-extended */
		sign = (uint64_t)1 << (8 * sz - 1);
		t->iv[i] = (int64_t)(u ^ sign) - (int64_t)sign;
		break;
	case DT_UINT64:
		t->iv[i] = u > INT64_MAX ? INT64_MAX : (int64_t)u;
		break;
	default:	/* int64, unsigned of up to 32 bits, bool */
		t->iv[i] = (int64_t)u;
		break;
	}
}

/* Values of t's type come in this typed field of tp: its length. */
static int64_t
typedcount(const struct tensor *t, const Onnx__TensorProto *tp)
{
	switch (t->dtype) {
	case DT_FLOAT:
		return (int64_t)tp->n_float_data;
	case DT_DOUBLE:
		return (int64_t)tp->n_double_data;
	case DT_INT64:
		return (int64_t)tp->n_int64_data;
	case DT_UINT32: case DT_UINT64:
		return (int64_t)tp->n_uint64_data;
	default:
		return (int64_t)tp->n_int32_data;
	}
}

/* Element i of tp's typed field into t's values. */
static void
typed1(struct tensor *t, const Onnx__TensorProto *tp, int64_t i)
{
	switch (t->dtype) {
	case DT_FLOAT:
		t->fv[i] = tp->float_data[i];
		break;
	case DT_DOUBLE:
		t->fv[i] = tp->double_data[i];
		break;
	case DT_INT64:
		t->iv[i] = tp->int64_data[i];
		break;
	case DT_UINT32: case DT_UINT64:
		t->iv[i] = tp->uint64_data[i] > INT64_MAX ? INT64_MAX :
		    (int64_t)tp->uint64_data[i];
		break;
	case DT_FLOAT16:
		t->fv[i] = half2d((uint16_t)tp->int32_data[i]);
		break;
	case DT_BFLOAT16:
		t->fv[i] = bf2d((uint16_t)tp->int32_data[i]);
		break;
	default:
		t->iv[i] = tp->int32_data[i];
		break;
	}
}

/* Values from the typed fields; -1 when their count is not n. */
static int
typedget(struct tensor *t, const Onnx__TensorProto *tp, int64_t n)
{
	int64_t i;

	if (typedcount(t, tp) != n)
		return -1;
	for (i = 0; i < n; i++)
		typed1(t, tp, i);
	return 0;
}

/*
 * Length of tp's raw_data: its own, or the one onnx_wire left in its
 * place (ONNX_WIRE_RAWLEN); -1 when it has none.
 */
static int64_t
rawlen(const Onnx__TensorProto *tp)
{
	const ProtobufCMessageUnknownField *u;
	uint64_t v;
	size_t i, k;

	if (tp->has_raw_data)
		return (int64_t)tp->raw_data.len;
	for (i = 0; i < tp->base.n_unknown_fields; i++) {
		u = &tp->base.unknown_fields[i];
		if (u->tag != ONNX_WIRE_RAWLEN ||
		    u->wire_type != PROTOBUF_C_WIRE_TYPE_VARINT)
			continue;
		for (v = 0, k = 0; k < u->len && k < 9; k++)
			v |= (uint64_t)(u->data[k] & 0x7f) << (7 * k);
		return v > INT64_MAX ? INT64_MAX : (int64_t)v;
	}
	return -1;
}

int
tensor_from_proto(struct tensor *t, const Onnx__TensorProto *tp,
    const char *file, const char *where)
{
	int64_t want, have;
	int64_t n;
	size_t i;
	int sz;

	if (tp->n_dims > ONNX_MAXRANK) {
		pf_err(file, "%s: rank %zu is above %d", where, tp->n_dims,
		    ONNX_MAXRANK);
		return -1;
	}
	t->rank = (int)tp->n_dims;
	for (i = 0; i < tp->n_dims; i++) {
		if (tp->dims[i] < 0) {
			pf_err(file, "%s: negative dim '%lld'", where,
			    (long long)tp->dims[i]);
			return -1;
		}
		t->dims[i] = tp->dims[i];
	}
	if ((n = tensor_numel(t)) < 0) {
		pf_err(file, "%s: element count overflows 64 bits", where);
		return -1;
	}
	t->dtype = tp->has_data_type ? tp->data_type : DT_UNDEF;
	t->known = 1;
	sz = onnx_dtype_size(t->dtype);
	if (sz == 0 || (tp->has_data_location &&
	    tp->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL) ||
	    tp->n_external_data > 0)
		return 0;	/* dims are all this tool needs */
	/* raw_data that does not hold the dims is a broken tensor, kept or not */
	if ((have = rawlen(tp)) >= 0 && (ck_mul(n, sz, &want) < 0 ||
	    have != want)) {
		if (ck_mul(n, sz, &want) < 0)
			pf_err(file, "%s: raw_data has %lld bytes, want more "
			    "than 64 bits count", where, (long long)have);
		else
			pf_err(file, "%s: raw_data has %lld bytes, want %lld",
			    where, (long long)have, (long long)want);
		return -1;
	}
	if (!onnx_keepval(t->dtype, n))
		return 0;	/* dims are all this tool needs */
	tensor_setval(t, n);
	if (tp->has_raw_data) {
		if ((int64_t)tp->raw_data.len != n * sz) {
			pf_err(file, "%s: raw_data has %zu bytes, want %lld",
			    where, tp->raw_data.len, (long long)(n * sz));
			return -1;
		}
		for (n = 0; n < t->nval; n++)
			rawget(t, tp->raw_data.data, n);
	} else if (typedget(t, tp, n) < 0) {
		/* A tensor whose data is missing keeps its dims only. */
		tensor_dropval(t);
	}
	return 0;
}

const char *
tensor_shape_str(const struct tensor *t, char *buf, size_t size)
{
	size_t off = 0;
	int i;

	buf[0] = '\0';
	if (!t->known) {
		snprintf(buf, size, "?");
		return buf;
	}
	if (t->rank == 0)
		snprintf(buf, size, "scalar");
	for (i = 0; i < t->rank && off < size; i++)
		off += (size_t)snprintf(buf + off, size - off, "%s%lld",
		    i ? "x" : "", (long long)t->dims[i]);
	return buf;
}
