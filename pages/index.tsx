export default function Landing() {
  return (
    <main>
      <h1>Posts</h1>
      <p>Share images with a message and tags.</p>
    </main>
  );
}
