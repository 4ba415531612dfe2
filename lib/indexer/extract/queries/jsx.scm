; JSX (JavaScript and TSX): a component element is a call of the component.
(jsx_opening_element name: (_) @callee) @jsx
(jsx_self_closing_element name: (_) @callee) @jsx
