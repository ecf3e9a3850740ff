/*
 * The ONNX protobuf without the weights: a walk over the wire format
 * that copies a ModelProto and leaves out the data (raw_data and the
 * typed *_data fields) of every tensor whose values onnx2layers would
 * not keep (onnx_keepval), so that protobuf-c never copies them.  It
 * descends where tensors hold weights: graph initializers, node
 * attributes (Constant values) and subgraphs, and functions' nodes.
 *
 * The walk follows protobuf-c's own scanning rules (tags, varints,
 * length prefixes, packed arrays), so a file decodes after stripping
 * exactly when it decodes whole, into the same values for every tensor
 * the loader reads; anything it does not recognise it copies unchanged
 * for protobuf-c to judge.
 */
#ifndef PF_ONNX_WIRE_H
#define PF_ONNX_WIRE_H

#include <stddef.h>
#include <stdint.h>

/*
 * A raw_data field left out is replaced by a varint field of this number
 * holding its length, so the loader can still check the length against
 * the dims without the bytes.  The number lies in the range protobuf
 * reserves for its implementation (19000-19999), which no .proto, ONNX's
 * included, may declare; protobuf-c keeps it as an unknown field, and one
 * found in the input is dropped.
 */
#define ONNX_WIRE_RAWLEN	19000

/*
 * Copy of the serialised ModelProto in[0..len) without the data of the
 * tensors whose values are not kept.  Returns an allocated buffer (free
 * it) of *outlen bytes, or NULL when the bytes are not a protobuf that
 * protobuf-c would decode (nothing reported: the caller says so).
 */
uint8_t *onnx_wire_strip(const uint8_t *in, size_t len, size_t *outlen);
/*
 * The same for the len bytes of the regular file open on fd, read in
 * pieces (pread) as the walk needs them: the skipped data is never read.
 * NULL with *err 0: not a protobuf; NULL with *err an errno: the file
 * could not be read (or mapped).
 */
uint8_t *onnx_wire_strip_fd(int fd, size_t len, size_t *outlen, int *err);

#endif
