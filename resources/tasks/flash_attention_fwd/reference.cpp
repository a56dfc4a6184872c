// Reference for flash_attention_fwd: o = softmax(q kᵀ / sqrt(D) [+ causal mask]) v per head, in double
// precision (see ../include/kwb_reference.h). q, k, v, o are [B*H, S, D]; with causal = 1 query i sees
// keys 0..i only.
#include "kwb_reference.h"

#include <algorithm>

void reference(kwb::ref::Case& c) {
  const auto& q = c.in("q");
  const auto& k = c.in("k");
  const auto& v = c.in("v");
  auto& o = c.out("o");
  const int64_t heads = q.dim(0), seq = q.dim(1), d = q.dim(2);
  const bool causal = c.attr("causal") != 0;
  const double scale = 1.0 / std::sqrt(static_cast<double>(d));
  std::vector<double> score(static_cast<size_t>(seq));
  for (int64_t h = 0; h < heads; ++h) {
    const int64_t base = h * seq * d;
    for (int64_t i = 0; i < seq; ++i) {
      const int64_t keys = causal ? i + 1 : seq;
      double mx = -INFINITY;
      for (int64_t j = 0; j < keys; ++j) {
        double s = 0;
        for (int64_t e = 0; e < d; ++e) s += q[base + i * d + e] * k[base + j * d + e];
        score[static_cast<size_t>(j)] = s * scale;
        mx = std::max(mx, s * scale);
      }
      double sum = 0;
      for (int64_t j = 0; j < keys; ++j) {
        score[static_cast<size_t>(j)] = std::exp(score[static_cast<size_t>(j)] - mx);
        sum += score[static_cast<size_t>(j)];
      }
      for (int64_t e = 0; e < d; ++e) {
        double acc = 0;
        for (int64_t j = 0; j < keys; ++j) acc += score[static_cast<size_t>(j)] * v[base + j * d + e];
        o[base + i * d + e] = acc / sum;
      }
    }
  }
}
