#include "template/strict_mustache.hpp"

#include "util/strings.hpp"

#include <algorithm>
#include <vector>

namespace envlock::templates {

namespace mstch = kainjow::mustache;
using nlohmann::json;

namespace {

mstch::data to_data(const json& value) {
  switch (value.type()) {
  case json::value_t::object: {
    mstch::data object{mstch::data::type::object};
    for (const auto& [key, item] : value.items()) {
      object.set(key, to_data(item));
    }
    return object;
  }
  case json::value_t::array: {
    mstch::data list{mstch::data::type::list};
    for (const auto& item : value) {
      list.push_back(to_data(item));
    }
    return list;
  }
  case json::value_t::string:
    return mstch::data{value.get<std::string>()};
  case json::value_t::boolean:
    return mstch::data{value.get<bool>()};
  case json::value_t::null:
    return mstch::data{false};
  default:
    return mstch::data{value.dump()};
  }
}

// Every dotted name reachable from the root, and the keys of list items (names used inside a
// section over the list), for "did you mean" suggestions.
void collect_names(const json& value, const std::string& prefix, std::vector<std::string>& out) {
  if (value.is_object()) {
    for (const auto& [key, item] : value.items()) {
      const std::string name = prefix.empty() ? key : prefix + "." + key;
      out.push_back(name);
      collect_names(item, name, out);
    }
  } else if (value.is_array()) {
    for (const auto& item : value) {
      collect_names(item, "", out);
    }
  }
}

// kainjow's context, recording every name it cannot resolve.
class StrictContext : public mstch::basic_context<std::string> {
public:
  explicit StrictContext(const mstch::data* root) : m_inner(root) {}

  void push(const mstch::data* data) override { m_inner.push(data); }
  void pop() override { m_inner.pop(); }
  const mstch::data* get(const std::string& name) const override {
    return note(name, m_inner.get(name));
  }
  const mstch::data* get_partial(const std::string& name) const override {
    return note(name, m_inner.get_partial(name));
  }
  [[nodiscard]] const std::vector<std::string>& missing() const { return m_missing; }

private:
  const mstch::data* note(const std::string& name, const mstch::data* found) const {
    if (found == nullptr) {
      m_missing.push_back(name);
    }
    return found;
  }

  mstch::context<std::string> m_inner;
  mutable std::vector<std::string> m_missing;
};

} // namespace

mstch::data to_mustache_data(const json& context) {
  return to_data(context);
}

Result<std::string> render_mustache(std::string_view text, const std::string& origin,
                                    const json& context) {
  mstch::mustache tmpl{std::string(text)};
  if (!tmpl.is_valid()) {
    return input_error(origin + ": " + tmpl.error_message());
  }
  tmpl.set_custom_escape([](const std::string& s) { return s; });
  const mstch::data data = to_data(context);
  StrictContext ctx(&data);
  std::string out = tmpl.render(ctx);
  if (!tmpl.is_valid()) {
    return input_error(origin + ": " + tmpl.error_message());
  }
  if (!ctx.missing().empty()) {
    const std::string& name = ctx.missing().front();
    std::vector<std::string> names;
    collect_names(context, "", names);
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    std::string message = origin + ": unknown name '" + name + "'";
    if (const auto close = util::closest_match(name, names)) {
      message += "; did you mean '" + *close + "'?";
    }
    return input_error(message);
  }
  return out;
}

} // namespace envlock::templates
