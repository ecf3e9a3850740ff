/*
 * Geometry of the ONNX recurrent ops LSTM (4 gates), GRU (3) and RNN (1),
 * shared by their shape rule and their emission as layers: sequence
 * length, batch, input and hidden sizes, directions, from the inputs and
 * attributes (layout 0: X is [S, B, I]; layout 1: [B, S, I]).
 */
#ifndef PF_ONNX_RNN_H
#define PF_ONNX_RNN_H

#include <stdint.h>

#include "onnx_load.h"

struct rnn {
	int64_t	 seq, batch, in, hidden;
	int	 gates, dirs, layout;
	int	 reverse;	/* one direction, run from the last step */
};

/*
 * Read node n (LSTM, GRU or RNN, its inputs' shapes known) into *r,
 * checking W [D, G*H, I], R [D, G*H, H] and the optional initial states
 * [D, B, H].  Reports and returns -1.
 */
int rnn_geom(const struct model *m, const struct node *n, struct rnn *r);

#endif
