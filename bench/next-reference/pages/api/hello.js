// The empty pages API route: what the main app's pages server costs per request, minus the app.
export default function handler(_req, res) {
  res.status(200).json({ hello: 'world' });
}
