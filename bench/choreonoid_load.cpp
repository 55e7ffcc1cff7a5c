// Peer for the load comparison: Choreonoid's own cnoid::BodyLoader (shapes on, its default) loading
// each model file, timed the way bench/load.ts times loadRobotModel: a fresh loader per load (our
// loader keeps nothing between loads either), warm-up loads discarded, then repetitions.
//
// Built by bench/choreonoid.ts against an installed Choreonoid SDK (found by test/support/peers.ts:
// CHOREONOID_PREFIX, `choreonoid` on PATH, or its CMake config); Choreonoid itself is never part of this repository.
//
// argv: WARMUP REPS; stdin: one model path per line.
// stdout: one JSON object per model: {"file": ..., "ok": true, "ms": [...]} or {"file": ..., "ok": false, "error": ...}
#include <cnoid/Body>
#include <cnoid/BodyLoader>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>

namespace {

std::string jsonString(const std::string& s)
{
    std::string out = "\"";
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
        } else {
            out += static_cast<char>(c);
        }
    }
    return out + "\"";
}

// One load with a fresh loader; the loader's messages go to `messages`.
bool loadOnce(const std::string& file, double& ms, std::string& messages)
{
    std::ostringstream sink;
    cnoid::BodyPtr body = new cnoid::Body;
    auto t0 = std::chrono::steady_clock::now();
    bool ok;
    {
        cnoid::BodyLoader loader;
        loader.setMessageSink(sink);
        ok = loader.load(body, file);
    }
    auto t1 = std::chrono::steady_clock::now();
    ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
    messages = sink.str();
    return ok;
}

}  // namespace

int main(int argc, char** argv)
{
    if (argc != 3) {
        std::cerr << "usage: choreonoid_load WARMUP REPS < model-paths\n";
        return 2;
    }
    const int warmup = std::atoi(argv[1]);
    const int reps = std::atoi(argv[2]);
    std::string file;
    while (std::getline(std::cin, file)) {
        if (file.empty()) continue;
        std::ostringstream samples;
        std::string messages;
        bool ok = true;
        for (int r = 0; ok && r < warmup + reps; ++r) {
            double ms = 0.0;
            ok = loadOnce(file, ms, messages);
            if (ok && r >= warmup) samples << (r > warmup ? "," : "") << ms;
        }
        if (ok) {
            std::cout << "{\"file\":" << jsonString(file) << ",\"ok\":true,\"ms\":[" << samples.str() << "]}\n";
        } else {
            std::cout << "{\"file\":" << jsonString(file) << ",\"ok\":false,\"error\":" << jsonString(messages) << "}\n";
        }
        std::cout.flush();
    }
    return 0;
}
