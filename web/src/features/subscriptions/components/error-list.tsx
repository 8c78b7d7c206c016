// A failed call's texts under the form, read out when they appear.
export function ErrorList({ texts }: { texts: readonly string[] }) {
  return (
    <div role="alert" className="subscription-errors">
      {texts.length > 0 && (
        <ul>
          {texts.map((text) => (
            <li key={text}>{text}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
