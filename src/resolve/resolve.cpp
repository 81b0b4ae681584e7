#include "resolve/resolve.hpp"

#include "git/ref.hpp"
#include "util/fs.hpp"
#include "util/sha256.hpp"
#include "uv/uv_lock.hpp"

namespace envlock::resolve {

namespace {

// A relative path in portable form: "." for the folder itself, no trailing slash.
std::string normal_relative(const std::filesystem::path& path) {
  std::string text = path.lexically_normal().generic_string();
  while (text.size() > 1 && text.back() == '/') {
    text.pop_back();
  }
  return text.empty() ? "." : text;
}

std::filesystem::path absolute_normal(const std::filesystem::path& path) {
  return std::filesystem::absolute(path).lexically_normal();
}

// "python.project: cannot read python/uv.lock: REASON", with uv.lock's limit said in MiB.
Error cannot_read(const Error& error) {
  std::string message = "python.project: cannot read " + error.message;
  const std::string limit = "larger than " + std::to_string(uv::k_uv_lock_limit) + " bytes";
  if (message.ends_with(limit)) {
    message.replace(message.size() - limit.size(), limit.size(), "larger than 64 MiB");
  }
  return input_error(std::move(message));
}

// The sha256 of a file of the python project: a regular file, of at most `limit` bytes (checked
// before any byte is read).
Result<std::string> hash_file(const manifest::Manifest& manifest, std::string_view name,
                              std::uintmax_t limit) {
  const std::string shown = project_file(manifest, name);
  auto fd = util::open_regular_file(manifest.dir / shown, limit, shown);
  if (!fd) {
    // The project is there (its pyproject.toml), its lock was never made.
    std::error_code ec;
    const auto lock_path = manifest.dir / shown;
    if (name == "uv.lock" &&
        std::filesystem::symlink_status(lock_path, ec).type() ==
            std::filesystem::file_type::not_found &&
        std::filesystem::exists(lock_path.parent_path() / "pyproject.toml", ec)) {
      const std::string folder = std::filesystem::path(shown).parent_path().string();
      return input_error("python.project: " + shown + " does not exist; run 'uv lock'" +
                         (folder.empty() ? "" : " in " + folder) +
                         " to make it (and commit it), then 'envlock lock' again");
    }
    return cannot_read(fd.error());
  }
  auto digest = util::sha256_fd(fd->get(), shown + ": ");
  if (!digest) {
    return cannot_read(digest.error());
  }
  return util::to_hex(digest->data(), digest->size());
}

// The training section with its files' paths (normalised, relative to the manifest's folder) and
// no hashes yet.
lock::Training training_paths(const manifest::Training& training) {
  const auto file = [](const std::string& path) {
    return lock::HashedFile{normal_relative(path), "", 0};
  };
  lock::Training out;
  if (training.config) {
    out.config = file(*training.config);
  }
  if (training.tokenizer) {
    out.tokenizer.emplace();
    for (const auto& path : *training.tokenizer) {
      out.tokenizer->push_back(file(path));
    }
  }
  if (training.data) {
    const std::string prefix = normal_relative(*training.data);
    out.data = lock::TrainingData{prefix, file(prefix + ".bin"), file(prefix + ".idx")};
  }
  out.checkpoint_dir = training.checkpoint_dir;
  return out;
}

} // namespace

std::string project_file(const manifest::Manifest& manifest, std::string_view name) {
  return normal_relative(std::filesystem::path(manifest.python.project) / name);
}

lock::Lock manifest_fields(const manifest::Manifest& manifest,
                           const std::filesystem::path& lock_path) {
  lock::Lock lock;
  const auto lock_dir = absolute_normal(lock_path).parent_path();
  lock.manifest_path = normal_relative(absolute_normal(manifest.path).lexically_relative(lock_dir));
  lock.manifest_sha256 = manifest.sha256;
  lock.image = {manifest.image.name, manifest.image.tag, manifest.image.repository};
  lock.base_image.reference = manifest.base.image;
  lock.base_image.platform = manifest.base.platform;
  if (const auto ref = oci::parse_image_ref(manifest.base.image)) {
    lock.base_image.name = ref->name();
    lock.base_image.tag = ref->tag;
  }
  for (const auto& [name, source] : manifest.sources) {
    lock.sources[name] = lock::GitPin{source.git, source.ref, ""};
  }
  lock.python.project = normal_relative(manifest.python.project);
  lock.python.uv_version = manifest.python.uv.version;
  lock.python.uv_sha256 = manifest.python.uv.sha256;
  lock.python.sync_args = manifest.python.sync_args;
  lock.python.uv_lock.path = project_file(manifest, "uv.lock");
  lock.build_args = manifest.build.args;
  const auto& e = manifest.expect;
  lock.expect = lock::Expect{
      e.cuda, e.nccl,   e.pytorch, e.python, {e.gpus.count, e.gpus.model}, e.nccl_busbw_gbps,
      e.host, e.resume, e.links,   e.health};
  lock.enroot = {
      manifest.enroot.squash_options, manifest.enroot.source_date_epoch,
      lock::parse_enroot_locale(manifest.enroot.locale).value_or(lock::EnrootLocale::utf8)};
  if (manifest.training) {
    lock.training = training_paths(*manifest.training);
  }
  if (manifest.launch) {
    lock.launch = lock::Launch{manifest.launch->command, manifest.launch->directories};
  }
  return lock;
}

Status hash_python_files(const manifest::Manifest& manifest, lock::Python& python) {
  ENVLOCK_TRY_ASSIGN(python.uv_lock.sha256, hash_file(manifest, "uv.lock", uv::k_uv_lock_limit));
  ENVLOCK_TRY_ASSIGN(python.pyproject_sha256, hash_file(manifest, "pyproject.toml", UINTMAX_MAX));
  return {};
}

Result<lock::ImagePin> resolve_base_image(const manifest::Manifest& manifest,
                                          const ImageResolver& resolve) {
  auto parsed = oci::parse_image_ref(manifest.base.image);
  if (!parsed) {
    return with_prefix(std::move(parsed).error(), "base.image: ");
  }
  const oci::ImageRef& ref = *parsed;
  const auto& platform = manifest.base.platform;
  if (!ref.tag.empty() && !ref.digest.empty()) {
    oci::ImageRef by_tag = ref;
    by_tag.digest.clear();
    auto tagged = resolve(by_tag, platform);
    if (!tagged) {
      return with_prefix(std::move(tagged).error(), "base.image: ");
    }
    if (tagged->digest != ref.digest) {
      return check_failed("base.image: the registry says " + by_tag.to_string() + " is " +
                          tagged->digest + ", the manifest pins " + ref.digest);
    }
  }
  auto resolved = resolve(ref, platform);
  if (!resolved) {
    return with_prefix(std::move(resolved).error(), "base.image: ");
  }
  return lock::ImagePin{manifest.base.image,      ref.name(),           ref.tag,
                        resolved->digest,         resolved->media_type, platform,
                        resolved->platform_digest};
}

Result<lock::Lock> resolve_lock(const manifest::Manifest& manifest,
                                const std::filesystem::path& lock_path,
                                const ImageResolver& resolve,
                                const std::optional<std::filesystem::path>& megatron_repo,
                                const FileProgress& progress) {
  lock::Lock lock = manifest_fields(manifest, lock_path);
  ENVLOCK_TRY(hash_python_files(manifest, lock.python));
  ENVLOCK_TRY_ASSIGN(lock.context, hash_context_files(manifest));
  if (lock.training) {
    ENVLOCK_TRY(hash_training_files(manifest, *lock.training, progress));
  }
  const std::string uv_lock_path = lock.python.uv_lock.path;
  // Megatron-LM's uv.lock is about 1 MiB; 64 MiB leaves room and bounds the memory used.
  const auto uv_text =
      util::read_regular_file(manifest.dir / uv_lock_path, uv::k_uv_lock_limit, uv_lock_path);
  if (!uv_text) {
    return cannot_read(uv_text.error());
  }
  ENVLOCK_TRY_ASSIGN(lock::UvLockPin uv_lock, uv::parse_uv_lock(*uv_text, uv_lock_path));
  uv_lock.path = uv_lock_path;
  uv_lock.sha256 = util::sha256_hex(*uv_text);
  ENVLOCK_TRY(check_python_inputs(manifest, uv_lock, *uv_text));
  ENVLOCK_TRY(mark_not_selected(manifest, uv_lock, *uv_text));
  lock.python.uv_lock = std::move(uv_lock);
  ENVLOCK_TRY_ASSIGN(lock.base_image, resolve_base_image(manifest, resolve));
  for (auto& [name, pin] : lock.sources) {
    auto commit = git::resolve_commit(pin.git, pin.ref, manifest.dir);
    if (!commit) {
      return with_prefix(std::move(commit).error(), "sources." + name + ": ");
    }
    pin.commit = std::move(*commit);
  }
  ENVLOCK_TRY_ASSIGN(lock.recipe, resolve_recipe(manifest, lock, resolve, megatron_repo));
  return lock;
}

} // namespace envlock::resolve
