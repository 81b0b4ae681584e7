#include "cmdline/usage_error.hpp"

#include "cmdline/help.hpp"
#include "util/strings.hpp"

#include <algorithm>
#include <iterator>

namespace envlock::cmdline {

namespace {

std::string see_help(const CLI::App& app) {
  return "See '" + command_path(app) + " --help'.";
}

std::vector<std::string> command_names(const CLI::App& group) {
  std::vector<std::string> names;
  for (const CLI::App* sub : group.get_subcommands({})) {
    if (!sub->get_name().empty() && !sub->get_disabled()) {
      names.push_back(sub->get_name());
    }
  }
  return names;
}

// Long names as "--name", short ones as "-n", of every option of `app` (hidden ones too: an old
// spelling still works).
std::vector<std::string> option_names(const CLI::App& app, bool long_names) {
  std::vector<std::string> names;
  for (const CLI::Option* opt : app.get_options()) {
    for (const auto& name : long_names ? opt->get_lnames() : opt->get_snames()) {
      names.push_back((long_names ? "--" : "-") + name);
    }
  }
  return names;
}

std::string unknown_option_message(const CLI::App& app, const std::string& given) {
  const bool long_name = given.starts_with("--");
  std::string name = given;
  if (const auto eq = name.find('='); long_name && eq != std::string::npos) {
    name.resize(eq);
  } else if (!long_name && name.size() > 2) {
    name.resize(2); // -xVALUE
  }
  std::string message = command_path(app) + ": unknown option '" + name + "'";
  const auto names = option_names(app, long_name);
  auto close = util::closest_match(name, names);
  if (!close && long_name) {
    // A shortened name ("--out" for "--output"), when only one option starts with it.
    std::vector<std::string> longer;
    std::copy_if(names.begin(), names.end(), std::back_inserter(longer), [&](const std::string& n) {
      return n.size() > name.size() && n.starts_with(name);
    });
    if (longer.size() == 1) {
      close = longer.front();
    }
  }
  if (close) {
    message += "; did you mean '" + *close + "'? ";
  } else {
    message += ". ";
  }
  return message + see_help(app);
}

} // namespace

std::vector<const CLI::App*> parsed_chain(const CLI::App& top) {
  std::vector<const CLI::App*> chain{&top};
  for (bool deeper = true; deeper;) {
    deeper = false;
    for (const CLI::App* sub : chain.back()->get_subcommands()) {
      if (sub->get_parent() == chain.back()) {
        chain.push_back(sub);
        deeper = true;
        break;
      }
    }
  }
  return chain;
}

std::string unknown_command_message(const CLI::App& group, const std::string& name) {
  std::string message = command_path(group) + ": unknown command '" + name + "'";
  if (const auto close = util::closest_match(name, command_names(group))) {
    return message + "; did you mean '" + *close + "'?";
  }
  return message + ". " + see_help(group);
}

std::string usage_message(const CLI::App& top, const CLI::Error& error) {
  const auto chain = parsed_chain(top);
  for (const CLI::App* app : chain) {
    const auto left = app->remaining(false);
    if (left.empty()) {
      continue;
    }
    const std::string& item = left.front();
    if (item.size() > 1 && item.front() == '-') {
      return unknown_option_message(*app, item);
    }
    if (!command_names(*app).empty()) {
      return unknown_command_message(*app, item);
    }
    return command_path(*app) + ": unexpected argument '" + item + "'. " + see_help(*app);
  }
  std::string what = error.what();
  if (!what.empty() && what.back() != '.') {
    what += ".";
  }
  return command_path(*chain.back()) + ": " + what + " " + see_help(*chain.back());
}

} // namespace envlock::cmdline
