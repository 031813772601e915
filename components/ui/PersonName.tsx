/**
 * A username as it is shown. Someone elsewhere's (`name@host`) may break before its `@host`, so a
 * narrow column shows the name, then the server, instead of cutting the server off or breaking
 * inside either (issue 32's handles at 375 px). The text, and so the accessible name, is unchanged;
 * the server is a `.host` span a narrow place may set smaller.
 */
export function PersonName({ username }: { username: string }) {
  const at = username.lastIndexOf('@');
  if (at <= 0) return <>{username}</>;
  return (
    <>
      {username.slice(0, at)}
      <wbr />
      <span className="host">{username.slice(at)}</span>
    </>
  );
}
