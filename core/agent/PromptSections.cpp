// SPDX-License-Identifier: MIT
#include "core/agent/PromptSections.h"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <sstream>

namespace kwb {

namespace {
constexpr std::size_t kMinUseful = 200;

std::string shapeText(const Shape& s) {
  std::string out = "[";
  for (std::size_t k = 0; k < s.size(); ++k) out += (k ? ", " : "") + std::to_string(s[k]);
  return out + "]";
}

std::string num(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}
}  // namespace

void fitSections(std::vector<PromptSection>& sections, std::size_t budgetChars,
                 std::vector<std::string>& trimmed) {
  auto total = [&] {
    return std::accumulate(sections.begin(), sections.end(), std::size_t{0},
                           [](std::size_t n, const PromptSection& s) { return n + s.body.size() + 1; });
  };
  std::vector<std::size_t> order;
  for (std::size_t k = 0; k < sections.size(); ++k)
    if (sections[k].role == SectionRole::Trimmable) order.push_back(k);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return sections[a].importance < sections[b].importance;
  });
  for (std::size_t idx : order) {
    const std::size_t now = total();
    if (now <= budgetChars) return;
    PromptSection& s = sections[idx];
    const std::size_t excess = now - budgetChars;
    const std::string marker = "\n[... trimmed to fit the prompt budget ...]\n";
    if (s.body.size() <= excess + kMinUseful + marker.size()) {
      trimmed.push_back(s.title + " dropped (" + std::to_string(s.body.size()) + " characters)");
      s.body.clear();
      continue;
    }
    const std::size_t keep = s.body.size() - excess - marker.size();
    if (s.cut == CutFrom::End) {
      s.body = s.body.substr(0, keep) + marker;
    } else {
      const std::size_t head = keep * 2 / 3;
      const std::size_t tail = keep - head;
      s.body = s.body.substr(0, head) + marker + s.body.substr(s.body.size() - tail);
    }
    trimmed.push_back(s.title + " cut by " + std::to_string(excess) + " characters");
  }
}

std::string describeTask(const Task& t, std::optional<double> baselineUs) {
  std::ostringstream s;
  s << "- kernel entry point: `" << t.name << "`";
  if (!t.category.empty()) s << " (" << t.category << ")";
  s << "\n";
  if (!t.description.empty()) s << "- what it computes: " << t.description << "\n";
  s << "- kernel arguments, in order: ";
  bool first = true;
  for (const auto& i : t.inputs) {
    s << (first ? "" : ", ") << i.name << " (input, " << dtypeName(i.dtype) << ")";
    first = false;
  }
  for (const auto& o : t.outputs) {
    s << (first ? "" : ", ") << o.name << " (output, " << dtypeName(o.dtype) << ")";
    first = false;
  }
  s << ", workspace, tiling\n";
  for (const auto& a : t.attrs) {
    s << "- attribute `" << a.name << "` (" << attrTypeName(a.type) << ")";
    if (a.defaultValue) s << ", default " << a.defaultValue->dump();
    s << ": read it in kwb_tiling with kwb_attr_"
      << (a.type == AttrType::Float || a.type == AttrType::FloatList ? "float" : "int") << "(in, \"" << a.name
      << "\", ...)\n";
  }
  s << "- verification cases (every one must pass):\n";
  for (const auto& c : t.cases) {
    s << "  - " << c.name << ":";
    bool f = true;
    for (const auto& [tensor, shape] : c.shapes) {
      s << (f ? " " : ", ") << tensor << " " << shapeText(shape);
      f = false;
    }
    for (const auto& [name, value] : c.attrs) s << ", " << name << "=" << value.dump();
    if (c.values) {
      s << "; values " << distributionName(c.values->distribution);
      if (c.values->low || c.values->high)
        s << " [" << (c.values->low ? num(*c.values->low) : "") << ", "
          << (c.values->high ? num(*c.values->high) : "") << "]";
    }
    s << "\n";
  }
  std::vector<DType> dtypes;
  for (const auto& o : t.outputs)
    if (std::find(dtypes.begin(), dtypes.end(), o.dtype) == dtypes.end()) dtypes.push_back(o.dtype);
  for (DType d : dtypes) {
    const Tolerance tol = t.toleranceFor(d);
    s << "- tolerance for " << dtypeName(d) << " outputs: atol " << num(tol.atol) << ", rtol "
      << num(tol.rtol)
      << " (atol shrinks to rtol x the largest reference value when the output is tiny); at most "
      << num(tol.maxMismatchRatio * 100.0)
      << "% of elements may be near misses, and one element off by more than 10x the tolerance fails\n";
  }
  s << "- target SoC: " << t.soc;
  if (t.blockDim) s << "; suggested blockDim " << *t.blockDim;
  s << "\n";
  if (t.baseline)
    s << "- baseline: " << num(t.baseline->latencyUs) << " us (" << t.baseline->source << ")\n";
  else if (baselineUs)
    s << "- baseline: " << num(*baselineUs) << " us (the first correct candidate)\n";
  return s.str();
}

}  // namespace kwb
