#include "verify/gpu/link_verdict.hpp"

#include "util/strings.hpp"

#include <algorithm>
#include <array>
#include <cstdio>

namespace envlock::verify {

namespace {

std::string link_gbps_text(double value) {
  std::array<char, 32> text{};
  if (std::snprintf(text.data(), text.size(), "%.1f GB/s", value) < 0) {
    return "? GB/s";
  }
  return text.data();
}

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// Whether a measured link is compared with others at all, and with which.
bool comparable(LinkKind kind, const LinkMeasure& link) {
  return link.error.empty() && (kind == LinkKind::peer || link.direct);
}
bool same_group(const LinkMeasure& a, const LinkMeasure& b) {
  return a.rank == b.rank && a.direct == b.direct;
}

std::string figure_name(LinkKind kind, const LinkMeasure& link) {
  switch (kind) {
  case LinkKind::peer:
    return "peer_" + std::to_string(link.from) + "_" + std::to_string(link.to);
  case LinkKind::host_to_device:
    return "host_to_device_" + std::to_string(link.from);
  case LinkKind::device_to_host:
    return "device_to_host_" + std::to_string(link.from);
  }
  return "";
}

// At most this many links are listed in a reason; the rest are counted.
constexpr std::size_t k_listed_links = 4;

std::string listed(const std::vector<std::string>& items) {
  std::vector<std::string> shown(
      items.begin(),
      items.begin() + static_cast<std::ptrdiff_t>(std::min(items.size(), k_listed_links)));
  std::string text = util::join(shown, ", ");
  if (items.size() > k_listed_links) {
    text += " and " + std::to_string(items.size() - k_listed_links) + " more";
  }
  return text;
}

} // namespace

std::string link_name(LinkKind kind, const LinkMeasure& link) {
  if (kind == LinkKind::peer) {
    return "GPU " + std::to_string(link.from) + " -> GPU " + std::to_string(link.to);
  }
  return "GPU " + std::to_string(link.from);
}

std::optional<double> link_minimum(const lock::LinksExpect& expect, const std::string& model,
                                   LinkKind kind) {
  const auto found = expect.find(model);
  if (found == expect.end()) {
    return std::nullopt;
  }
  const lock::LinkMinimums& minimums = found->second;
  const auto& slot = kind == LinkKind::peer             ? minimums.peer_gbps
                     : kind == LinkKind::host_to_device ? minimums.host_to_device_gbps
                                                        : minimums.device_to_host_gbps;
  if (!slot) {
    return std::nullopt;
  }
  return slot->value;
}

std::vector<FarBelow> far_below_others(LinkKind kind, const std::vector<LinkMeasure>& links) {
  std::vector<FarBelow> out;
  for (std::size_t i = 0; i < links.size(); ++i) {
    if (!comparable(kind, links[i])) {
      continue;
    }
    std::vector<double> others;
    for (std::size_t j = 0; j < links.size(); ++j) {
      if (j != i && comparable(kind, links[j]) && same_group(links[i], links[j])) {
        others.push_back(links[j].gbps);
      }
    }
    if (others.empty()) {
      continue;
    }
    const double median = median_of(others);
    if (links[i].gbps < k_link_far_below * median) {
      out.push_back({i, median});
    }
  }
  return out;
}

void judge_links(LinkKind kind, const std::vector<LinkMeasure>& links,
                 std::optional<double> minimum, const std::string& model, CheckResult& check) {
  if (minimum) {
    check.expected = ">= " + link_gbps_text(*minimum) + (kind == LinkKind::peer ? " each way" : "");
  }
  nlohmann::json rows = nlohmann::json::array();
  std::vector<std::string> errors;
  std::vector<std::string> below;
  std::vector<std::string> indirect;
  const LinkMeasure* slowest = nullptr;
  for (const auto& link : links) {
    nlohmann::json row = {{"from", link.from}};
    if (kind == LinkKind::peer) {
      row["to"] = link.to;
      row["performance_rank"] = link.rank;
      row["peer_access"] = link.direct;
    } else {
      row["on_local_cpus"] = link.direct;
    }
    if (!link.error.empty()) {
      row["error"] = link.error;
      errors.push_back(link_name(kind, link) + ": " + link.error);
      rows.push_back(std::move(row));
      continue;
    }
    row["gbps"] = link.gbps;
    rows.push_back(std::move(row));
    check.figures.push_back({figure_name(kind, link), link.gbps, "GB/s"});
    if (minimum && link.gbps < *minimum) {
      below.push_back(link_name(kind, link) + " " + link_gbps_text(link.gbps));
    }
    if (kind == LinkKind::peer && !link.direct) {
      indirect.push_back(link_name(kind, link));
    }
    if (slowest == nullptr || link.gbps < slowest->gbps) {
      slowest = &link;
    }
  }
  check.details["links"] = std::move(rows);
  check.details["far_below_fraction"] = k_link_far_below;
  if (slowest != nullptr) {
    check.found = (links.size() - errors.size() > 1 ? "slowest " : "") +
                  link_gbps_text(slowest->gbps) + " (" + link_name(kind, *slowest) + ")";
  }
  if (!indirect.empty()) {
    check.details["without_peer_access"] = indirect.size();
    check.found += "; " + std::to_string(indirect.size()) + " without peer access";
  }
  std::vector<std::string> reasons;
  if (!errors.empty()) {
    reasons.push_back(listed(errors));
  }
  if (!below.empty()) {
    reasons.push_back("below the lock's minimum " + link_gbps_text(*minimum) + " for " + model +
                      ": " + listed(below));
  }
  const auto far = far_below_others(kind, links);
  if (!far.empty()) {
    std::vector<std::string> named;
    for (const auto& [index, median] : far) {
      named.push_back(link_name(kind, links[index]) + " " + link_gbps_text(links[index].gbps) +
                      " (the others' median " + link_gbps_text(median) + ")");
    }
    reasons.push_back("far below the others: " + listed(named));
  }
  check.outcome = reasons.empty() ? Outcome::pass : Outcome::fail;
  check.reason = util::join(reasons, "; ");
}

} // namespace envlock::verify
