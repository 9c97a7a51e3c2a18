-- wrk script for the generator-ceiling step of `make bench`: GET /healthz on keep-alive
-- connections; at the end, one JSON line with the request count and the latency percentiles.
wrk.method = "GET"
wrk.path = "/healthz"

done = function(summary, latency, requests)
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write
               + summary.errors.status + summary.errors.timeout
  io.write(string.format(
    'WRKJSON {"requests": %d, "duration_us": %d, "errors": %d, "p50_us": %d, "p99_us": %d}\n',
    summary.requests, summary.duration, errors,
    latency:percentile(50), latency:percentile(99)))
end
