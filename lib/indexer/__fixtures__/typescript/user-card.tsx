import React, { useState } from "react";
import { Card } from "./card";

interface UserCardProps {
  user: { id: string; name: string };
  onSave?: (id: string) => void;
}

/** Shows one user with an edit toggle. */
export function UserCard({ user, onSave }: UserCardProps) {
  const [open, setOpen] = useState(false);
  const toggle = () => {
    setOpen(!open);
    onSave?.(user.id);
  };
  return (
    <Card.Frame title={user.name}>
      <Button onClick={toggle} />
      <span>{formatName(user.name)}</span>
    </Card.Frame>
  );
}

export default function Page() {
  return <UserCard user={{ id: "1", name: "Ada" }} />;
}
