#include "squashfs/mksquashfs.hpp"

#include "util/process.hpp"
#include "util/strings.hpp"

#include <sstream>

namespace envlock::squashfs {

namespace {

std::string tail_lines(const std::string& text, std::size_t count) {
  std::vector<std::string> lines;
  for (auto& line : util::split(text, '\n')) {
    if (!util::trim(line).empty()) {
      lines.push_back(std::move(line));
    }
  }
  const std::size_t start = lines.size() > count ? lines.size() - count : 0;
  return util::join(std::vector<std::string>(lines.begin() + static_cast<long>(start), lines.end()),
                    "\n");
}

} // namespace

std::vector<std::string> mksquashfs_arguments(const SquashSettings& settings) {
  const std::string epoch = std::to_string(settings.source_date_epoch);
  std::vector<std::string> args = {"-mkfs-time", epoch,       "-all-time",
                                   epoch,        "-all-root", "-no-progress"};
  std::istringstream words(settings.squash_options);
  for (std::string word; words >> word;) {
    args.push_back(word);
  }
  return args;
}

Result<std::string> mksquashfs_version() {
  if (!util::find_program("mksquashfs")) {
    return env_error("mksquashfs: not found in PATH (install squashfs-tools)");
  }
  ENVLOCK_TRY_ASSIGN(const auto run, util::run_process({"mksquashfs", "-version"}));
  // "mksquashfs version 4.5.1 (2022/03/17)"
  std::istringstream words(run.out);
  std::string word;
  while (words >> word) {
    if (word == "version" && (words >> word)) {
      return word;
    }
  }
  return env_error("mksquashfs -version: unexpected output: " + tail_lines(run.out + run.err, 2));
}

Status run_mksquashfs(const std::filesystem::path& root, const std::filesystem::path& output,
                      const std::vector<std::string>& arguments) {
  std::vector<std::string> argv = {"mksquashfs", root.string(), output.string()};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  util::ProcessOptions options;
  options.clean_env = true;
  options.umask = 022;
  ENVLOCK_TRY_ASSIGN(const auto run, util::run_process(argv, options));
  if (run.exit_code != 0) {
    return env_error("mksquashfs failed (exit " + std::to_string(run.exit_code) +
                     "): " + tail_lines(run.out + run.err, 4));
  }
  return {};
}

} // namespace envlock::squashfs
