// next.config.ts: the Pyodide files in public/pyodide/, readable by the browser executor's worker.
const nextConfig = {
  async headers() {
    return [{ source: "/pyodide/:file*", headers: [{ key: "Access-Control-Allow-Origin", value: "*" }] }];
  },
};

export default nextConfig;
