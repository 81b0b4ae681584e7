#include "provenance/key_files.hpp"

#include "provenance/keys.hpp"
#include "util/fs.hpp"

#include <cstdlib>
#include <system_error>

namespace envlock::provenance {

namespace fs = std::filesystem;

Result<fs::path> default_key_path() {
  const char* config = std::getenv("XDG_CONFIG_HOME");
  const char* home = std::getenv("HOME");
  fs::path dir;
  if (config != nullptr && *config == '/') {
    dir = config;
  } else if (home != nullptr && *home == '/') {
    dir = fs::path(home) / ".config";
  } else {
    return input_error("neither XDG_CONFIG_HOME nor HOME is set to an absolute path; give the "
                       "key's path");
  }
  return dir / "envlock" / "signing.key";
}

fs::path public_key_path(const fs::path& key_path) {
  fs::path pub = key_path;
  pub += ".pub";
  return pub;
}

Result<std::string> write_key_pair(const fs::path& key_path, Overwrite overwrite) {
  const fs::path pub_path = public_key_path(key_path);
  if (overwrite == Overwrite::refuse) {
    for (const fs::path& path : {key_path, pub_path}) {
      std::error_code ec;
      if (fs::symlink_status(path, ec).type() != fs::file_type::not_found) {
        return input_error(path.string() + ": already exists; pass --force to replace it");
      }
    }
  }
  ENVLOCK_TRY_ASSIGN(const Key key, generate_key());
  ENVLOCK_TRY_ASSIGN(const std::string private_pem, private_key_pem(key));
  ENVLOCK_TRY_ASSIGN(const std::string public_pem, public_key_pem(key));
  ENVLOCK_TRY(util::write_file_atomic(key_path, private_pem, 0600));
  ENVLOCK_TRY(util::write_file_atomic(pub_path, public_pem, 0644));
  return key.key_id();
}

} // namespace envlock::provenance
