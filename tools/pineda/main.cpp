// SPDX-License-Identifier: Apache-2.0
// build/pineda: the command-line front door (README "The pineda tool").
//   pineda render MODEL [--texture PNG] [--camera YAW,PITCH[,DIST[,FOV]]] [--size WxH] [--msaa 4]
//                       [--smooth] [--sort] [--backend model|rtl|both] [--out frame.png] [--capture FILE]
//   pineda capture (SCENE | MODEL) --out FILE      a regression scene or a model as a capture file
//   pineda replay FILE [--backend model|rtl|both] [--compare] [--out frame.png]
//   pineda info FILE                               what a capture file holds
//   pineda scenes                                  the regression scenes
#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>

#include "capture_file.h"
#include "image_diff.h"
#include "mesh_load.h"
#include "pineda_contract.h"
#include "model_render.h"
#include "replay.h"
#include "scene_capture.h"
#include "scenes.h"

namespace {

using namespace pineda;
using namespace pineda::cli;

const std::map<std::string, Backend> kBackends{{"model", Backend::MODEL}, {"rtl", Backend::RTL}, {"both", Backend::BOTH}};
const std::map<std::string, Cull> kCulls{{"back", Cull::BACK}, {"none", Cull::NONE}, {"front", Cull::FRONT}};

struct Common {
  ReplayOptions replay;
  std::string backend = "model";
  std::string out;
};

void add_backend_options(CLI::App* c, Common& o, const std::string& default_out) {
  o.out = default_out;
  c->add_option("--backend,-b", o.backend, "model (the golden C++ model), rtl (the Verilated RTL), or both (RTL compared "
                "with the model at every stream boundary, then registers and memory)")
      ->check(CLI::IsMember({"model", "rtl", "both"}))
      ->capture_default_str();
  c->add_option("--out,-o", o.out, "the image (PNG) of the render target; a 4x MSAA target is resolved")->capture_default_str();
  auto* g = "RTL simulation";
  c->add_option("--latency", o.replay.dram.latency, "DRAM latency in cycles")->group(g)->capture_default_str();
  c->add_option("--jitter", o.replay.dram.jitter, "random extra DRAM latency, 0..N cycles per request")->group(g)->capture_default_str();
  c->add_option("--bandwidth", o.replay.dram.bytes_per_clock, "DRAM peak bandwidth in bytes per clock")->group(g)->capture_default_str();
  c->add_option("--throttle", o.replay.throttle, "chance per cycle of stalling each tapped boundary")
      ->check(CLI::Range(0.0, 1.0))->group(g)->capture_default_str();
  c->add_option("--seed", o.replay.seed, "seed of stalls, memory jitter and X initialisation")->group(g)->capture_default_str();
  c->add_option("--fst", o.replay.fst_path, "dump an FST waveform of the RTL run (fst2vcd converts it to VCD)")->group(g);
  c->add_option("--wave-from", o.replay.wave_from, "first cycle dumped")->group(g);
  c->add_option("--wave-to", o.replay.wave_to, "last cycle dumped")->group(g);
  c->add_flag("!--no-progress", o.replay.progress, "no progress line during RTL runs")->group(g);
  c->add_option("--max-cycles", o.replay.max_cycles, "stop an RTL run that has not finished after this many cycles")
      ->check(CLI::PositiveNumber)->group(g)->capture_default_str();
  auto* m = "Model";
  c->add_option("--max-work", o.replay.model_budget.max_work,
                "stop a model run after this many units of work (ring dwords, indices, triangles, tiles, quads, memory "
                "lines; 0: no limit): a command stream that loops or a draw too large to finish")
      ->group(m)->capture_default_str();
  c->add_option("--timeout", o.replay.model_budget.max_seconds, "stop a model run after this many seconds (0: no limit)")
      ->check(CLI::NonNegativeNumber)->group(m)->capture_default_str();
}

void add_render_options(CLI::App* c, RenderOptions& r, std::string& size, std::vector<double>& camera,
                        std::vector<double>& rotate, std::string& cull) {
  c->add_option("--texture,-t", r.texture, "an image (PNG, JPEG) modulating the lit colour: a texture with host-made mips, "
                "sampled by the hardware (trilinear, WRAP) at the vertices' interpolated texture coordinates; default: the "
                "material's own texture if found")
      ->check(CLI::ExistingFile);
  c->add_flag("!--no-file-texture", r.file_texture, "ignore the textures the model file names");
  c->add_option("--camera,-c", camera, "YAW,PITCH[,DIST[,FOV]]: the camera orbits the model (degrees; DIST in model radii, "
                "0 fits the model; FOV vertical, degrees)")
      ->delimiter(',')->expected(2, 4)->default_str("30,20,0,40");
  c->add_option("--rotate", rotate, "X,Y,Z: rotate the model about its axes first (degrees)")->delimiter(',')->expected(3);
  c->add_option("--size,-s", size, "WxH: the render target in pixels")->capture_default_str();
  c->add_option("--msaa", r.samples, "samples per pixel: 1, or 4 (D3D sample positions, resolved for the PNG)")
      ->check(CLI::IsMember({1, 4}))->capture_default_str();
  c->add_option("--cull", cull, "back (default), none or front: which faces the hardware culls (a D24S8 depth buffer "
                "resolves visibility either way)")
      ->check(CLI::IsMember({"back", "none", "front"}))->capture_default_str();
  c->add_flag("--sort,!--no-sort", r.sort, "--sort: draw the triangles back to front (painter's order, sorted on the "
              "host; the depth test still runs); --no-sort (the default): file order");
  c->add_flag("!--smooth", r.face_normals, "light with the file's vertex normals (smoothed where it has none), Gouraud "
              "shaded, instead of each triangle's own normal, flat shaded");
}

void apply_render_options(RenderOptions& r, const std::string& size, const std::vector<double>& camera,
                          const std::vector<double>& rotate, const std::string& cull) {
  unsigned w = 0, h = 0;
  char x = 0, extra = 0;
  if (std::sscanf(size.c_str(), "%u%c%u%c", &w, &x, &h, &extra) != 3 || (x != 'x' && x != 'X') || w == 0 || h == 0 ||
      w > 4095 || h > 4096) {
    throw CLI::ValidationError("--size", "expected WxH with 1 <= W <= 4095, 1 <= H <= 4096, e.g. 640x480");
  }
  r.width = w;
  r.height = h;
  for (const double v : camera) {
    if (!std::isfinite(v)) throw CLI::ValidationError("--camera", "YAW,PITCH[,DIST[,FOV]] must be finite numbers");
  }
  for (const double v : rotate) {
    if (!std::isfinite(v)) throw CLI::ValidationError("--rotate", "X,Y,Z must be finite numbers");
  }
  if (camera.size() > 2 && camera[2] < 0) throw CLI::ValidationError("--camera", "DIST must be 0 (fit) or positive");
  if (!camera.empty()) r.yaw = camera[0];
  if (camera.size() > 1) r.pitch = camera[1];
  if (camera.size() > 2) r.distance = camera[2];
  if (camera.size() > 3) r.fov = camera[3];
  if (r.fov <= 1 || r.fov >= 170) throw CLI::ValidationError("--camera", "FOV must lie between 1 and 170 degrees");
  if (rotate.size() == 3) r.rotate = {rotate[0], rotate[1], rotate[2]};
  r.cull = kCulls.at(cull);
}

// Writes the shown image; on a mismatch (both backends) the model, RTL and diff images beside it.
int finish(const SceneImage& img, const ReplayOutcome& r, const Common& o) {
  const TargetView t = scene_target(img);
  if (!o.out.empty()) {
    const std::filesystem::path p(o.out);
    if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path());
    write_image_png(o.out, target_image(r.shown_mem(), t));
  }
  if (r.model) {
    std::printf("model: %.2f s, %llu units of work, memory digest %s\n", r.model_seconds,
                static_cast<unsigned long long>(r.model->gpu->work()), bits::hex(r.model->result.memory_digest).c_str());
  }
  if (r.have_rtl) {
    std::printf("rtl:   %llu cycles in %.2f s, memory digest %s\n", static_cast<unsigned long long>(r.cycles),
                r.rtl_seconds, bits::hex(r.rtl_result.memory_digest).c_str());
  }
  if (!r.ok) {
    std::fputs(r.report.c_str(), stdout);
    if (r.model && r.have_rtl) {
      const std::filesystem::path p(o.out.empty() ? img.name + ".png" : o.out);
      const std::string dir = p.has_parent_path() ? p.parent_path().string() : ".";
      std::fputs(write_mismatch_images(dir, p.stem().string(), r.model->mem, r.rtl_mem, t, &r.model->gpu->trace()).c_str(),
                 stdout);
    }
    std::printf(r.model && r.have_rtl ? "RTL and model DIFFER\n" : "the RTL run FAILED\n");
    return 1;
  }
  if (r.model && r.have_rtl) std::printf("RTL and model agree: every stream boundary, register and memory byte\n");
  if (!o.out.empty()) std::printf("wrote %s (%ux%u%s)\n", o.out.c_str(), img.width, img.height, img.samples == 4 ? ", 4x MSAA resolved" : "");
  return 0;
}

SceneImage model_scene(const std::string& path, RenderOptions& ro, bool verbose) {
  const LoadedMesh mesh = load_mesh(path);
  RenderInfo info;
  const std::string name = std::filesystem::path(path).stem().string();
  SceneImage img = build_model_scene(mesh, ro, name, path, &info);
  if (verbose) {
    std::printf("%s: %zu vertices, %zu triangles, %ux%u%s%s%s\n", path.c_str(), info.vertices, info.triangles, ro.width,
                ro.height, ro.samples == 4 ? " 4x MSAA" : "", info.texture.empty() ? "" : ", texture ", info.texture.c_str());
  }
  if (!info.note.empty()) std::fprintf(stderr, "note: %s\n", info.note.c_str());
  return img;
}

void save_with_result(const std::string& path, const SceneImage& img, const ReplayOutcome* r) {
  rt::Capture c = scene_to_capture(img);
  if (r && r->model) {
    c.expected = r->model->result;
  } else {  // the model's result, so that a later replay can be checked against it
    c.expected = run_model(img, 1, false).result;
  }
  const std::filesystem::path p(path);
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path());
  rt::save_capture(path, c);
  std::printf("captured %s: %s\n", img.name.c_str(), path.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // lines in order with the progress line on stderr
  CLI::App app{"pineda: render model files, capture and replay command streams on the Pineda GPU's golden model and "
               "its Verilated RTL.\nModels are lit per vertex on the host and drawn by the hardware with a D24S8 depth "
               "buffer, back faces culled, flat (Gouraud with --smooth), textured by its sampler (trilinear, MODULATE)."};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "help for every command");

  // ---- render
  auto* render = app.add_subcommand("render", "render a model file (OBJ, 3DS, glTF, PLY, STL, DAE, FBX... through assimp) to a PNG");
  std::string model_path, size = "512x512", cull = "back", capture_out;
  std::vector<double> camera, rotate;
  RenderOptions ro;
  Common rc;
  render->add_option("MODEL", model_path, "the model file, e.g. /usr/share/glmark2/models/horse.3ds")->required()->check(CLI::ExistingFile);
  add_render_options(render, ro, size, camera, rotate, cull);
  add_backend_options(render, rc, "frame.png");
  render->add_option("--capture", capture_out, "also save the command stream as a capture file (pineda replay)");
  render->footer("Examples:\n  pineda render /usr/share/glmark2/models/horse.3ds --backend both --out horse.png\n"
                 "  pineda render /usr/share/glmark2/models/cat.3ds --camera 150,10 --msaa 4 --size 320x240\n"
                 "  pineda render cube.obj --texture /usr/share/glmark2/textures/crate-base.png --capture cube.pcap");

  // ---- capture
  auto* capture = app.add_subcommand("capture", "write a regression scene (pineda scenes) or a model file as a capture file");
  std::string source, capture_path;
  uint32_t scene_seed = 1;
  RenderOptions cro;
  std::string csize = "512x512", ccull = "back";
  std::vector<double> ccamera, crotate;
  capture->add_option("SOURCE", source, "a scene name (pineda scenes) or a model file")->required();
  capture->add_option("--out,-o", capture_path, "the capture file to write")->required();
  capture->add_option("--scene-seed", scene_seed, "seed of the scene's content")->capture_default_str();
  add_render_options(capture, cro, csize, ccamera, crotate, ccull);
  capture->footer("Every regression scene: pineda_sim --capture DIR (or make sim SIM_ARGS='--capture DIR').");

  // ---- replay
  auto* replay_cmd = app.add_subcommand("replay", "run a capture file on the model, the RTL or both");
  std::string replay_path;
  bool compare = false, any_contract = false;
  Common pc;
  replay_cmd->add_option("FILE", replay_path, "the capture file")->required();
  add_backend_options(replay_cmd, pc, "");
  replay_cmd->add_flag("--compare", compare, "check that the result (memory digest, host registers) is bit-identical to "
                       "the one recorded in the capture");
  replay_cmd->add_flag("--any-contract", any_contract, "replay a stream encoded for another contract version anyway");

  // ---- info, scenes
  auto* info = app.add_subcommand("info", "what a capture file holds");
  std::string info_path;
  info->add_option("FILE", info_path, "the capture file")->required();
  auto* scenes = app.add_subcommand("scenes", "list the regression scenes (pineda capture SCENE, make sim TEST=SCENE)");

  CLI11_PARSE(app, argc, argv);

  try {
    if (render->parsed()) {
      apply_render_options(ro, size, camera, rotate, cull);
      rc.replay.backend = kBackends.at(rc.backend);
      const SceneImage img = model_scene(model_path, ro, true);
      const ReplayOutcome r = replay(img, rc.replay);
      const int rcode = finish(img, r, rc);
      if (!capture_out.empty()) save_with_result(capture_out, img, &r);
      return rcode;
    }
    if (capture->parsed()) {
      SceneImage img;
      if (find_scene(source)) {
        img = build_scene(source, scene_seed);
      } else if (std::filesystem::exists(source)) {
        apply_render_options(cro, csize, ccamera, crotate, ccull);
        img = model_scene(source, cro, true);
      } else {
        throw std::runtime_error(source + ": neither a scene (pineda scenes) nor a file");
      }
      save_with_result(capture_path, img, nullptr);
      return 0;
    }
    if (replay_cmd->parsed()) {
      rt::Capture c = rt::load_capture(replay_path, any_contract);
      const rt::CaptureResult want = c.expected;
      const SceneImage img = capture_to_scene(std::move(c));
      pc.replay.backend = kBackends.at(pc.backend);
      std::printf("replay %s (%s, %zu register writes) on %s\n", replay_path.c_str(), img.name.c_str(), img.reg_writes.size(),
                  pc.backend.c_str());
      const ReplayOutcome r = replay(img, pc.replay);
      int code = finish(img, r, pc);
      if (compare) {
        if (!want.present) {
          std::printf("--compare: the capture holds no recorded result\n");
          return 2;
        }
        bool same = true;
        const rt::CaptureResult* runs[2] = {r.model ? &r.model->result : nullptr, r.have_rtl ? &r.rtl_result : nullptr};
        for (const rt::CaptureResult* got : runs) {
          if (!got) continue;
          const std::string d = compare_result(want, *got);
          const char* who = got == &r.rtl_result ? "rtl" : "model";
          if (d.empty()) {
            std::printf("%s: bit-identical to the capture's recorded result (memory digest %s, %zu registers)\n", who,
                        bits::hex(want.memory_digest).c_str(), want.regs.size());
          } else {
            std::printf("%s: DIFFERS from the capture's recorded result:\n%s", who, d.c_str());
            same = false;
          }
        }
        if (!same) code = 1;
      }
      return code;
    }
    if (info->parsed()) {
      const rt::Capture c = rt::load_capture(info_path, true);
      std::printf("%s: scene %s, %s%s\n", info_path.c_str(), c.name.c_str(), rt::describe_contract(c.contract_id).c_str(),
                  c.contract_id == ID_VALUE ? " (this build's)" : " (NOT this build's)");
      std::printf("  memory: %zu pages of %u bytes, digest %s\n", c.mem.page_count(), Memory::PAGE_SIZE,
                  bits::hex(c.mem.digest()).c_str());
      static const char* const kFmt[4] = {"R8G8B8A8_UNORM", "B8G8R8A8_UNORM", "R8G8B8A8_UNORM_SRGB", "B5G6R5_UNORM"};
      std::printf("  render target: %ux%u %s, %u sample(s), at %s, pitch %u\n", c.target.width, c.target.height,
                  kFmt[c.target.fmt & 3u], c.target.samples, bits::hex(c.target.base).c_str(), c.target.pitch);
      std::printf("  host register writes: %zu; GPU waits released by the host: %zu\n", c.reg_writes.size(), c.wait_releases.size());
      if (c.expected.present) {
        std::printf("  recorded result: memory digest %s, %zu registers\n", bits::hex(c.expected.memory_digest).c_str(),
                    c.expected.regs.size());
      } else {
        std::printf("  no recorded result\n");
      }
      return 0;
    }
    if (scenes->parsed()) {
      for (const auto& s : scene_registry()) std::printf("%-18s %s\n", s.name.c_str(), s.description.c_str());
      for (const auto& s : optin_scene_registry()) std::printf("%-18s (opt-in) %s\n", s.name.c_str(), s.description.c_str());
      return 0;
    }
  } catch (const rt::CaptureError& e) {
    std::fprintf(stderr, "pineda: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pineda: %s\n", e.what());
    return 2;
  }
  return 0;
}
