/* rope_example.c — the README's C example: rotate q for 3 tokens x 2 heads
 * exactly as a Hugging Face Llama checkpoint does (half-split pairs, base
 * 500000), then undo it. Build: cc rope_example.c $(pkg-config --cflags --libs posenc) */
#include <posenc.h>
#include <stdio.h>

int main(void) {
    enum { TOKENS = 3, HEADS = 2, HEAD_DIM = 8 };
    float q[TOKENS][HEADS][HEAD_DIM];
    for (int t = 0; t < TOKENS; t++)
        for (int h = 0; h < HEADS; h++)
            for (int j = 0; j < HEAD_DIM; j++) q[t][h][j] = (float)(j + 1) / HEAD_DIM;

    pe_freqs freqs; /* plain value type: frequencies, magnitude */
    int st = pe_freqs_default(HEAD_DIM, 500000.0, &freqs);
    pe_tensor view = pe_tensor_dense(q, PE_F32, TOKENS, HEADS, HEAD_DIM);
    pe_positions pos = pe_positions_range(1000000); /* KV cache at 10^6 */
    if (st == PE_OK)
        st = pe_rope_apply(&freqs, PE_ROPE_HALF, &pos, &view, &view, PE_ROPE_FORWARD);
    if (st != PE_OK) {
        fprintf(stderr, "posenc: %s: %s\n", pe_strerror(st), pe_last_error());
        return 1;
    }
    printf("q[2][1][0..3] at position 1000002: %.6f %.6f %.6f %.6f\n", q[2][1][0], q[2][1][1],
           q[2][1][2], q[2][1][3]);

    /* A mistake is reported, never printed or fatal, and nothing is written. */
    st = pe_freqs_default(127, 500000.0, &freqs);
    printf("odd head_dim -> %s: %s\n", pe_strerror(st), pe_last_error());
    return 0;
}
