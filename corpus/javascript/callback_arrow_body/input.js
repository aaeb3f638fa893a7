const http = require('http');
const { loadConfig } = require('./config');

const config = loadConfig({
  path: process.env.APP_CONFIG,
  defaults: { port: 8080, host: '127.0.0.1' },
});

const server = http.createServer((req, res) => {
  const started = Date.now();
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ path: req.url, ms: Date.now() - started }));
});

server.listen(config.port, config.host, () => {
  console.log(`listening on ${config.host}:${config.port}`);
});
module.exports = server;
