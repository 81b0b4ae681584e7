// Rules of the host's network and DCGM: InfiniBand/RoCE ports active and at their rate,
// nvidia_peermem loaded, and DCGM's quick diagnostic.
#include "node/health/rule_check.hpp"
#include "node/health/value.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace envlock::node::health {

using nlohmann::json;

namespace {

std::string port_subject(const json& port) {
  return port.value("port", std::string("?"));
}

std::string port_words(const json& port, const char* key) {
  return port.contains(key) && port[key].is_string() ? port[key].get<std::string>() : "?";
}

void judge_ports(const JudgeContext& c, std::vector<verify::CheckResult>& out) {
  RuleCheck down("health.ib.port_down");
  RuleCheck rate("health.ib.rate");
  const auto& e = c.options.expect;
  down.expect(e.ib_ports ? std::to_string(*e.ib_ports) + " ports ACTIVE" : "every port ACTIVE");
  const auto all = value_of(c.host, "ib.ports");
  const std::string source = fact_source(c.host, "ib.ports");
  if (!all || !all->is_array()) {
    down.unreadable("", why_missing(c.host, "ib.ports"), source);
    rate.unreadable("", why_missing(c.host, "ib.ports"), source);
    out.push_back(down.result());
    out.push_back(rate.result());
    return;
  }
  std::vector<json> ports;
  for (const auto& port : *all) {
    if (!e.ib_link_layer || port.value("link_layer", json()) == *e.ib_link_layer) {
      ports.push_back(port);
    }
  }
  const std::string which = e.ib_link_layer ? *e.ib_link_layer + " " : "InfiniBand/RoCE ";
  if (ports.empty()) {
    if (e.ib_ports && *e.ib_ports > 0) {
      down.fail("", "no " + which + "port, " + std::to_string(*e.ib_ports) + " expected",
                action::k_drain, source);
    } else {
      down.skip("no " + which + "port");
    }
    rate.skip("no " + which + "port");
    out.push_back(down.result());
    out.push_back(rate.result());
    return;
  }
  std::vector<const json*> active;
  std::vector<const json*> inactive;
  for (const auto& port : ports) {
    const json state = port.value("state", json());
    if (!state.is_string()) {
      down.unreadable(port_subject(port), port.value("missing", std::string("no state")), source);
    } else {
      (state == "ACTIVE" ? active : inactive).push_back(&port);
    }
  }
  const bool short_of_expected = e.ib_ports && static_cast<long>(active.size()) < *e.ib_ports;
  for (const json* port : inactive) {
    const std::string what = "state " + port_words(*port, "state") + ", " +
                             port_words(*port, "phys_state") +
                             (e.ib_ports ? " (" + std::to_string(active.size()) + " of " +
                                               std::to_string(*e.ib_ports) + " expected active)"
                                         : "");
    if (short_of_expected) {
      down.fail(port_subject(*port), what, action::k_reseat_cable, source);
    } else if (!e.ib_ports) {
      down.warn(port_subject(*port), what, action::k_check_port, source);
    } else {
      down.note(port_subject(*port), port_words(*port, "state"));
    }
  }
  if (short_of_expected && inactive.empty()) {
    down.fail("",
              std::to_string(active.size()) + " ports ACTIVE, " + std::to_string(*e.ib_ports) +
                  " expected",
              action::k_drain, source);
  }
  for (const json* port : active) {
    down.note(port_subject(*port), "ACTIVE");
  }
  // Rate: against the expectation, else against the fastest active port of the same link layer
  // (a warning: a management NIC's RoCE port is not an InfiniBand port).
  std::map<std::string, double> fastest;
  for (const json* port : active) {
    if (const json r = port->value("rate_gbps", json());
        r.is_number() && std::isfinite(r.get<double>())) {
      double& most = fastest[port_words(*port, "link_layer")];
      most = std::max(most, r.get<double>());
    }
  }
  for (const json* port : active) {
    const std::string subject = port_subject(*port);
    const json r = port->value("rate_gbps", json());
    // A rate that is not a finite number (nan, inf, text) is unreadable, never a pass.
    if (!r.is_number() || !std::isfinite(r.get<double>()) || r.get<double>() < 0) {
      rate.unreadable(subject, "rate '" + port_words(*port, "rate") + "'", source);
      continue;
    }
    const double gbps = r.get<double>();
    const std::string text = port_words(*port, "rate");
    if (e.ib_rate_gbps && gbps < static_cast<double>(*e.ib_rate_gbps)) {
      rate.fail(subject, text, action::k_reseat_cable, source);
    } else if (!e.ib_rate_gbps && gbps < fastest[port_words(*port, "link_layer")]) {
      rate.warn(subject,
                text + ", slower than the fastest " + port_words(*port, "link_layer") + " port",
                action::k_reseat_later, source);
    } else {
      rate.note(subject, text);
    }
  }
  if (active.empty()) {
    rate.skip("no active port");
  }
  out.push_back(down.result());
  out.push_back(rate.result());
}

void judge_peermem(const JudgeContext& c, std::vector<verify::CheckResult>& out) {
  RuleCheck check("health.ib.peermem_missing");
  check.expect("loaded");
  const auto state = value_of(c.host, "nvidia_peermem");
  if (!c.options.expect.gpudirect_rdma.value_or(false)) {
    check.skip("expect.host.health.gpudirect_rdma is not true" +
               (state ? " (nvidia_peermem " + state->get<std::string>() + ")" : std::string()));
  } else if (const auto value = check.value(c.host, "nvidia_peermem", ""); value) {
    if (*value == "loaded") {
      check.note("", "loaded");
    } else {
      check.fail("", "nvidia_peermem is not loaded", action::k_load_peermem,
                 fact_source(c.host, "nvidia_peermem"));
    }
  }
  out.push_back(check.result());
}

void judge_dcgm(const JudgeContext& c, std::vector<verify::CheckResult>& out) {
  RuleCheck check("health.dcgm.diag");
  check.expect("every test passes");
  const json fact = c.host.value("dcgm", json::object());
  if (fact.is_object() && fact.contains("skipped")) {
    check.skip(fact.value("skipped", std::string()));
    out.push_back(check.result());
    return;
  }
  const auto results = check.value(c.host, "dcgm", "");
  const std::string source = fact_source(c.host, "dcgm");
  if (results && results->is_array()) {
    for (const auto& r : *results) {
      const json gpu = r.value("gpu", json());
      const std::string subject = gpu.is_number_integer() ? "GPU " + gpu.dump() : std::string();
      const std::string status = r.value("status", std::string("?"));
      const std::string warning = r.value("warning", std::string());
      const std::string what = r.value("test", std::string("?")) + " (" +
                               r.value("category", std::string("?")) + ") " + status +
                               (warning.empty() ? "" : ": " + warning);
      if (status == "Fail") {
        check.fail(subject, what, action::k_dcgm, source);
      } else if (status == "Warn") {
        check.warn(subject, what, action::k_dcgm, source);
      } else {
        check.note(subject, r.value("test", std::string("?")) + " " + status);
      }
    }
  }
  out.push_back(check.result());
}

} // namespace

void judge_network(const JudgeContext& context, std::vector<verify::CheckResult>& out) {
  judge_ports(context, out);
  judge_peermem(context, out);
  judge_dcgm(context, out);
}

} // namespace envlock::node::health
