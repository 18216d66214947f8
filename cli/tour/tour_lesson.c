/* tour_lesson.c — the sections of the tour: their explanations, written for
 * this project, and their formulas in MathML. The order is the design
 * notes' order; tour_html.c prints them in this order. */
#include "tour_lesson.h"

#include <string.h>

/* MathML shorthands, to keep the formulas readable here. */
#define MATH(x) "<math display=\"block\"><mrow>" x "</mrow></math>"
/* The first part of an equation that continues in the next MATH: on a wide
 * screen the two sit together, on a narrow one the rest wraps below. */
#define MATHCUT(x) "<math display=\"block\" class=\"cut\"><mrow>" x "</mrow></math>"
#define MI(x) "<mi>" x "</mi>"
#define MN(x) "<mn>" x "</mn>"
#define MO(x) "<mo>" x "</mo>"
#define MT(x) "<mtext>" x "</mtext>"
#define SUB(a, b) "<msub><mrow>" a "</mrow><mrow>" b "</mrow></msub>"
#define SUP(a, b) "<msup><mrow>" a "</mrow><mrow>" b "</mrow></msup>"
#define SUBSUP(a, b, c) "<msubsup><mrow>" a "</mrow><mrow>" b "</mrow><mrow>" c "</mrow></msubsup>"
#define FRAC(a, b) "<mfrac><mrow>" a "</mrow><mrow>" b "</mrow></mfrac>"
#define ROW(x) "<mrow>" x "</mrow>"
#define GAP "<mspace width=\"1.2em\"></mspace>"
#define BOLD1 "<mn mathvariant=\"bold\">1</mn>"
#define P(x) MO("(") x MO(")")

const tour_section tour_sections[] = {
    {"bag", "Attention alone is a bag of words",
     "Self-attention scores every query against every key and mixes the values by those scores. Nothing in "
     "that arithmetic looks at where a token sits, so permuting the input permutes the output the same way: "
     "without help the model sees a multiset of tokens, not a sentence. Every scheme that follows is a way "
     "to put the order back.",
     MATH(MT("attn") P(MI("X")) MO("=") MT("softmax") P(FRAC(MI("Q") SUP(MI("K"), MO("⊤")), "<msqrt>" MI("d") "</msqrt>"))
              MI("V")) MATH(MT("attn") P(MI("P") MI("X")) MO("=") MI("P") MO("&#x2062;") MT("attn") P(MI("X"))),
     "Vaswani et al., Attention Is All You Need (2017)", "https://arxiv.org/abs/1706.03762"},
    {"raw", "Raw integer positions and the four terms",
     "The plainest fix adds the index itself to every coordinate of the token, p_m = m·1. Pushed through the "
     "query and key maps, the logit splits into four terms: content against content, two cross terms that "
     "grow with one index, and a position-position term that grows with their product. Nothing bounds the "
     "last three, so on long inputs position outweighs meaning, and the logit drifts with the key's index.",
     MATHCUT(SUB(MT("logit"), ROW(MI("m") MI("n"))) MO("=") SUP(P(MI("Q") SUB(MI("e"), MI("m"))), MO("⊤")) MI("K")
              SUB(MI("e"), MI("n")) MO("+") MI("n") SUP(P(MI("Q") SUB(MI("e"), MI("m"))), MO("⊤")) MI("K") BOLD1)
         MATH(MO("+") MI("m") SUP(P(MI("Q") BOLD1), MO("⊤")) MI("K") SUB(MI("e"), MI("n")) MO("+") MI("m")
              MI("n") SUP(P(MI("Q") BOLD1), MO("⊤")) MI("K") BOLD1),
     "", ""},
    {"normalized", "Normalized positions",
     "Dividing the index by the length keeps every value between 0 and 1. The price is that a position no "
     "longer has one code: the same index gets a different number in a short input and in a long one, and "
     "the gap between neighbours shrinks as the input grows, so nothing the model learns about distances "
     "carries over from one length to another.",
     MATH(SUB(MI("p̃"), MI("m")) MO("=") FRAC(MI("m"), MI("L") MO("−") MN("1")) GAP MI("m") MO("=") MN("0") MO(",")
              MO("…") MO(",") MI("L") MO("−") MN("1")),
     "", ""},
    {"binary", "Binary positions",
     "Writing the index in bits gives codes that are bounded and mean the same at every length. But the bits "
     "are square waves: one step to the next position can flip many of them at once, so positions that are "
     "neighbours need not have codes that are near each other.",
     MATH(SUB(MI("b"), MI("j")) P(MI("m")) MO("=") MO("⌊") FRAC(MI("m"), SUP(MN("2"), MI("j"))) MO("⌋")
              MO("mod") MN("2")),
     "", ""},
    {"sinusoidal", "Sinusoidal encodings",
     "Replace the square waves with smooth ones: pair i of the code holds the sine and the cosine of the "
     "position times its own frequency, fast in the first pairs and slow in the last, with a base that sets "
     "the spread. Every position has a bounded code, and moving by k is the same linear map wherever you "
     "start. The catch: the code is added to the token, so position and content mix in the logit, and the "
     "codes' own dot product cannot tell before from after. Whether such codes extrapolate to longer inputs "
     "the notes do not agree (one says naturally, another that additive codes are limited); the experiment "
     "at the end measures it.",
     MATH(SUB(MT("PE"), ROW(MN("2") MI("i"))) P(MI("m")) MO("=") MI("sin") P(MI("m") SUB(MI("ω"), MI("i"))))
     MATH(SUB(MT("PE"), ROW(MN("2") MI("i") MO("+") MN("1"))) P(MI("m")) MO("=") MI("cos")
              P(MI("m") SUB(MI("ω"), MI("i"))))
     MATH(SUB(MI("ω"), MI("i")) MO("=") SUP(MI("b"), ROW(MO("−") MN("2") MI("i") MO("/") MI("D")))),
     "Vaswani et al., section 3.5", "https://arxiv.org/abs/1706.03762"},
    {"learned", "Learned positions",
     "Another route is to learn one vector per position, as for words. Each position then gets whatever code "
     "suits the data, consistent and bounded in practice, but only positions seen in training have a row: "
     "the table ends where the training lengths ended.",
     MATH(MT("PE") P(MI("m")) MO("=") SUB(MI("W"), MI("m")) MO(",") GAP MN("0") MO("≤") MI("m") MO("<")
              SUB(MI("T"), MT("max"))),
     "", ""},
    {"rope", "Rotary embeddings (RoPE)",
     "RoPE keeps the sinusoids' frequencies but uses them another way: instead of adding a code to the token, "
     "it turns each pair of the query by m·θ_i and each pair of the key by n·θ_i. Turning both leaves only the "
     "difference of the angles in their dot product, so the score sees the offset, knows its sign through "
     "the sine term, and fades as the pairs drift out of phase. Angles wrap, though: slow pairs eventually "
     "pass a half turn, and fast ones repeat every few tokens.",
     MATHCUT(MO("⟨") SUB(MI("R"), MI("m")) MI("q") MO(",") SUB(MI("R"), MI("n")) MI("k") MO("⟩") MO("=")
              "<munder>" MO("∑") MI("i") "</munder>" P(SUB(MI("q"), MI("i")) MO("·") SUB(MI("k"), MI("i"))) MI("cos")
              P(P(MI("n") MO("−") MI("m")) SUB(MI("θ"), MI("i"))))
         MATH(MO("−") P(SUB(MI("q"), MI("i")) MO("×")
              SUB(MI("k"), MI("i"))) MI("sin") P(P(MI("n") MO("−") MI("m")) SUB(MI("θ"), MI("i")))),
     "Su et al., RoFormer (2021)", "https://arxiv.org/abs/2104.09864"},
    {"scaling", "Scaling RoPE to longer contexts",
     "A model trained on L_0 tokens has only seen its slow pairs turn so far. Scaling schemes change the "
     "frequencies at inference so that a longer context stays inside the angles it knows: position "
     "interpolation divides every frequency by the factor s, NTK raises the base, and the ramped schemes "
     "(YaRN, Llama 3) leave the fast pairs alone and stretch only the slow ones, with a blend between.",
     MATH(SUBSUP(MI("ω"), MI("i"), MO("′")) MO("=") SUB(MI("ω"), MI("i")) P(FRAC(ROW(MN("1") MO("−")
              SUB(MI("γ"), MI("i"))), MI("s")) MO("+") SUB(MI("γ"), MI("i"))))
         MATH(SUB(MI("γ"), MI("i")) MO("∈") MO("[") MN("0") MO(",") MN("1") MO("]") MT(" (1: pair kept, 0: pair scaled)")),
     "Peng et al., YaRN (2023)", "https://arxiv.org/abs/2309.00071"},
    {"compare", "Every scheme on the notes' criteria",
     "The notes judge position schemes by a handful of properties: a bounded code, one code per position "
     "whatever the length, neighbours with nearby codes, a code for every position however far, and a "
     "similarity between two positions that depends on how far apart they are, not where. The table below "
     "measures each property for each scheme now, with the same code for every row; the claim is that it "
     "shows the pattern the notes describe.",
     MATH(MO("⟨") MI("f") P(MI("m")) MO(",") MI("f") P(MI("m") MO("+") MI("k")) MO("⟩") MO("=") MI("g")
              P(MI("k")) GAP MT("for every m")),
     "", ""},
    {"experiment", "Train short, test long",
     "The argument ends in a prediction that can be tested: a scheme built on bounded, relative angles should "
     "keep working past the lengths it was trained on, and a table of absolute positions should not. Here "
     "tiny decoders are trained, in C, to copy short sequences (the claims' numbers say how short) and then "
     "asked to copy sequences 1.5, 2 and 4 times as long. Two things to keep in mind when reading it. The task "
     "itself asks for new distances: the j-th answer symbol is the j-th input symbol, n + 1 positions back, so "
     "past the training length every relative scheme must attend at an offset it never used in training; "
     "bounded angles keep the codes familiar, not the offset. And these are small models of a quick run, "
     "three seeds each: the tables give the mean and the spread (± the sample standard deviation) over the "
     "seeds, and the first one says, seed by seed, whether each model learned the task at all. "
     "docs/EXPERIMENT.md has the larger run. The sentences below are written from the measured tables, "
     "whatever they say, and each is a test of them.",
     MATH(MT("exact match") P(MI("n")) MO("=") FRAC(MN("1"), MI("N")) "<munderover>" MO("∑") ROW(MI("j") MO("=")
              MN("1")) MI("N") "</munderover>" MO("[") SUB(MI("ŷ"), MI("j")) MO("=") SUB(MI("y"), MI("j")) MO("]")
              MO(",") GAP MI("n") MO("=") MT("symbols to copy")),
     "Press et al., ALiBi: Train Short, Test Long (2021)", "https://arxiv.org/abs/2108.12409"},
};
const size_t tour_section_count = sizeof tour_sections / sizeof tour_sections[0];

const tour_section *tour_section_find(const char *key) {
    for (size_t i = 0; i < tour_section_count; i++)
        if (strcmp(tour_sections[i].key, key) == 0) return &tour_sections[i];
    return NULL;
}
