#include "squashfs/registry_source.hpp"

#include "util/fs.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace envlock::squashfs {

namespace fs = std::filesystem;

namespace {

class RegistrySource final : public BlobSource {
public:
  RegistrySource(oci::ImageRef image, oci::RegistryOptions options, util::TempDir blobs)
      : m_image(std::move(image)), m_client(std::move(options)), m_blobs(std::move(blobs)) {}

  Result<ManifestBlob> manifest(std::string_view platform) override {
    ENVLOCK_TRY_ASSIGN(const oci::Resolved resolved, m_client.resolve(m_image, platform));
    return ManifestBlob{resolved.platform_digest, resolved.platform_manifest};
  }

  Result<fs::path> blob_file(std::string_view digest, std::optional<std::uint64_t> size) override {
    if (!oci::is_valid_digest(digest)) {
      return input_error("invalid blob digest '" + std::string(digest) + "'");
    }
    const fs::path path = m_blobs.path() / std::string(digest.substr(7));
    std::error_code ec;
    if (fs::exists(path, ec)) {
      return path;
    }
    const fs::path partial = path.string() + ".partial";
    const int fd = ::open(partial.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
      return env_error(partial.string() + ": " + std::strerror(errno));
    }
    const auto sink = [fd](std::string_view chunk) -> Status {
      std::size_t done = 0;
      while (done < chunk.size()) {
        const ssize_t n = ::write(fd, chunk.data() + done, chunk.size() - done);
        if (n < 0 && errno == EINTR) {
          continue;
        }
        if (n < 0) {
          return env_error(std::string("cannot store blob: ") + std::strerror(errno));
        }
        done += static_cast<std::size_t>(n);
      }
      return {};
    };
    auto fetched = m_client.fetch_blob(m_image, digest, size, sink);
    if (::close(fd) != 0 && fetched) {
      fetched = env_error(partial.string() + ": " + std::strerror(errno));
    }
    if (!fetched) {
      fs::remove(partial, ec);
      return std::move(fetched).error();
    }
    fs::rename(partial, path, ec);
    if (ec) {
      return env_error(path.string() + ": " + ec.message());
    }
    return path;
  }

private:
  oci::ImageRef m_image;
  oci::RegistryClient m_client;
  util::TempDir m_blobs;
};

} // namespace

Result<std::unique_ptr<BlobSource>> make_registry_source(oci::ImageRef image,
                                                         oci::RegistryOptions options) {
  ENVLOCK_TRY_ASSIGN(util::TempDir blobs, util::TempDir::create("envlock-blobs"));
  return std::unique_ptr<BlobSource>(
      std::make_unique<RegistrySource>(std::move(image), std::move(options), std::move(blobs)));
}

} // namespace envlock::squashfs
