#include "fleet/outliers.hpp"

#include <map>
#include <utility>

namespace envlock::fleet {

namespace {

using FigureKey = std::pair<std::string, std::string>; // check id, figure name

struct Figure {
  std::string unit;
  double value = 0;
};

// Rates where more is better; times and byte counts are not compared.
bool is_rate(const std::string& unit) {
  return unit == "TB/s" || unit == "GB/s" || unit == "TFLOP/s";
}

std::map<FigureKey, Figure> rate_figures(const NodeInput& node) {
  std::map<FigureKey, Figure> out;
  if (!node.reported) {
    return out;
  }
  for (const auto& check : node.report.checks) {
    for (const auto& figure : check.figures) {
      if (is_rate(figure.unit)) {
        out[{check.id, figure.name}] = {figure.unit, figure.value};
      }
    }
  }
  return out;
}

// The node's GPU model, as its gpu.model check found it.
std::string gpu_model(const NodeInput& node) {
  for (const auto& check : node.report.checks) {
    if (check.id == "gpu.model") {
      return check.found;
    }
  }
  return {};
}

bool is_busbw(const std::string& figure) {
  return figure.rfind("busbw", 0) == 0;
}

} // namespace

std::vector<Outlier> find_outliers(const std::vector<NodeInput>& nodes,
                                   const std::string& reference, const AggregateOptions& options) {
  std::map<FigureKey, Figure> reference_figures;
  for (const auto& node : nodes) {
    if (node.node == reference) {
      reference_figures = rate_figures(node);
    }
  }
  std::vector<Outlier> out;
  for (const auto& node : nodes) {
    const auto threshold = options.busbw_thresholds.find(gpu_model(node));
    const bool has_threshold = threshold != options.busbw_thresholds.end();
    for (const auto& [key, figure] : rate_figures(node)) {
      Outlier outlier{node.node, key.first, key.second, figure.unit, figure.value, 0, ""};
      if (is_busbw(key.second) && has_threshold) {
        outlier.against = threshold->second;
        outlier.source = "threshold expect.nccl_busbw_gbps[" + threshold->first + "]";
        if (figure.value < threshold->second) {
          out.push_back(std::move(outlier));
        }
        continue;
      }
      const auto ref = reference_figures.find(key);
      if (node.node == reference || ref == reference_figures.end()) {
        continue;
      }
      outlier.against = ref->second.value;
      outlier.source = "reference " + reference;
      if (figure.value < ref->second.value * (1.0 - options.tolerance)) {
        out.push_back(std::move(outlier));
      }
    }
  }
  return out;
}

} // namespace envlock::fleet
