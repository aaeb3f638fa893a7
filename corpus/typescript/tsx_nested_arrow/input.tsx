import { useState } from 'react';

type Props = { initial: number; label: string };

export function Counter({ initial, label }: Props) {
  const [count, setCount] = useState<number>(initial);
  const increment = () => {
    setCount((c) => c + 1);
  };
  return (
    <button onClick={increment}>
      {label}: {count}
    </button>
  );
}
