/*
 * The attributes of a model's nodes, read from their decoded protobuf:
 * numbers, strings, lists, tensors, subgraphs and the value of a
 * Constant; a node's tensors and the graph inputs' symbolic dims.  Part of
 * the loader (with onnx_load.c and onnx_tensor.c), so it may see the
 * protobuf-c types.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "onnx.pb-c.h"
#include "onnx_load.h"

static const Onnx__AttributeProto *
node_attr(const struct node *n, const char *name)
{
	size_t i;

	for (i = 0; i < n->np->n_attribute; i++)
		if (n->np->attribute[i]->name != NULL &&
		    strcmp(n->np->attribute[i]->name, name) == 0)
			return n->np->attribute[i];
	return NULL;
}

int
attr_has(const struct node *n, const char *name)
{
	return node_attr(n, name) != NULL;
}

/* Attribute name of n when it holds a number (int or float), or NULL. */
static const Onnx__AttributeProto *
num_attr(const struct node *n, const char *name)
{
	const Onnx__AttributeProto *a = node_attr(n, name);

	return a != NULL && (a->has_i || a->has_f) ? a : NULL;
}

/* An int read as such, a float truncated. */
int64_t
attr_int(const struct node *n, const char *name, int64_t def)
{
	const Onnx__AttributeProto *a = num_attr(n, name);

	return a == NULL ? def : a->has_i ? a->i : (int64_t)a->f;
}

/* A float read as such, an int converted. */
double
attr_float(const struct node *n, const char *name, double def)
{
	const Onnx__AttributeProto *a = num_attr(n, name);

	return a == NULL ? def : a->has_f ? a->f : (double)a->i;
}

const char *
attr_str(const struct node *n, const char *name, char *buf, size_t size,
    const char *def)
{
	const Onnx__AttributeProto *a = node_attr(n, name);
	size_t len;

	if (a == NULL || !a->has_s)
		return def;
	len = a->s.len < size - 1 ? a->s.len : size - 1;
	if (len > 0)
		memcpy(buf, a->s.data, len);
	buf[len] = '\0';
	for (; len > 0; len--)
		if ((unsigned char)buf[len - 1] < 0x20 ||
		    buf[len - 1] == 0x7f)
			buf[len - 1] = '?';
	return buf;
}

/*
 * The list attribute name of n, its ints into *iv or (iv NULL) its floats
 * into *fv: 0, or -1 when n has no such attribute.
 */
static int
attr_list(const struct node *n, const char *name, const int64_t **iv,
    const float **fv, size_t *nv)
{
	const Onnx__AttributeProto *a = node_attr(n, name);

	if (a == NULL)
		return -1;
	if (iv != NULL) {
		*iv = a->ints;
		*nv = a->n_ints;
	} else {
		*fv = a->floats;
		*nv = a->n_floats;
	}
	return 0;
}

int
attr_ints(const struct node *n, const char *name, const int64_t **v,
    size_t *nv)
{
	return attr_list(n, name, v, NULL, nv);
}

int
attr_floats(const struct node *n, const char *name, const float **v,
    size_t *nv)
{
	return attr_list(n, name, NULL, v, nv);
}

struct Onnx__GraphProto *
attr_graph(const struct node *n, const char *name)
{
	const Onnx__AttributeProto *a = node_attr(n, name);

	return a != NULL ? a->g : NULL;
}

int
attr_tensor(const struct model *m, const struct node *n, const char *name,
    struct tensor *t)
{
	const Onnx__AttributeProto *a = node_attr(n, name);
	char where[80];

	if (a == NULL || a->t == NULL)
		return 0;
	snprintf(where, sizeof(where), "node %.60s", n->name);
	return tensor_from_proto(t, a->t, m->file, where) < 0 ? -1 : 1;
}

int
node_constant(const struct model *m, const struct node *n, struct tensor *t)
{
	const Onnx__AttributeProto *a;
	size_t i;

	if ((a = node_attr(n, "value")) != NULL && a->t != NULL)
		return attr_tensor(m, n, "value", t);
	if ((a = node_attr(n, "value_float")) != NULL ||
	    (a = node_attr(n, "value_int")) != NULL) {
		t->dtype = a->has_i ? DT_INT64 : DT_FLOAT;
		t->rank = 0;
		t->known = 1;
		tensor_setval(t, 1);
		if (t->iv != NULL)
			t->iv[0] = a->i;
		else
			t->fv[0] = a->f;
		return 1;
	}
	if ((a = node_attr(n, "value_floats")) != NULL ||
	    (a = node_attr(n, "value_ints")) != NULL) {
		int isint = strcmp(a->name, "value_ints") == 0;
		int64_t cnt = isint ? (int64_t)a->n_ints : (int64_t)a->n_floats;

		t->dtype = isint ? DT_INT64 : DT_FLOAT;
		t->rank = 1;
		t->dims[0] = cnt;
		t->known = 1;
		tensor_setval(t, cnt);
		for (i = 0; i < (size_t)cnt; i++) {
			if (isint)
				t->iv[i] = a->ints[i];
			else
				t->fv[i] = a->floats[i];
		}
		return 1;
	}
	return 0;
}

const char *
node_domain(const struct node *n)
{
	return n->np->domain != NULL ? n->np->domain : "";
}

struct tensor *
node_in(const struct model *m, const struct node *n, size_t i)
{
	if (i >= n->nin || n->in[i] < 0)
		return NULL;
	return &m->t[n->in[i]];
}

struct tensor *
node_out(const struct model *m, const struct node *n, size_t i)
{
	if (i >= n->nout || n->out[i] < 0)
		return NULL;
	return &m->t[n->out[i]];
}

int
model_first_input(const struct model *m)
{
	size_t i;
	int k;

	for (i = 0; i < m->g->n_input; i++)
		if ((k = model_find(m, m->g->input[i]->name)) >= 0 &&
		    m->t[k].isinput)
			return k;
	return -1;
}

const char *
model_dimparam(const struct model *m, const struct tensor *t, int d)
{
	size_t i;

	for (i = 0; i < m->g->n_input; i++) {
		const Onnx__ValueInfoProto *vi = m->g->input[i];
		const Onnx__TensorShapeProto *sp;

		if (strcmp(vi->name, t->name) != 0 || vi->type == NULL ||
		    vi->type->value_case !=
		    ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE ||
		    vi->type->tensor_type == NULL ||
		    (sp = vi->type->tensor_type->shape) == NULL ||
		    (size_t)d >= sp->n_dim)
			continue;
		if (sp->dim[d]->value_case ==
		    ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM &&
		    sp->dim[d]->dim_param != NULL)
			return sp->dim[d]->dim_param;
	}
	return "?";
}
