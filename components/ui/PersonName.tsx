/**
 * A username as it is shown. Someone elsewhere's (`name@host`) may break before its `@host`, so a
 * narrow column shows the name, then the server, instead of cutting the server off or breaking
 * inside either (issue 32's handles at 375 px). The text, and so the accessible name, is unchanged;
 * the server is a `.host` span a narrow place may set smaller.
 */
function Username({ username }: { username: string }) {
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

/**
 * With a display name (issue 68, item 32): the name, then `@username` in a `.handle` span the place
 * styles quieter. The name is isolated (`bdi`): right-to-left text in it never reorders what follows.
 */
export function PersonName({ username, displayName }: { username: string; displayName?: string | null }) {
  if (!displayName) return <Username username={username} />;
  return (
    <>
      <bdi className="display-name">{displayName}</bdi>{' '}
      <span className="handle">
        @<Username username={username} />
      </span>
    </>
  );
}
