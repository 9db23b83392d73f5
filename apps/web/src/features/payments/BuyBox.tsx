import { Anchor, Button, Card, Group, Stack, Text } from '@mantine/core';
import { IconShoppingCartPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { errorText } from '../../api/client';
import { ErrorAlert, SuccessAlert } from '../../ui/ErrorAlert';
import { addToCart, type CartItemType } from './device-cart';

/**
 * The price and Add to cart of a course or certification page. What the server answers is said in
 * the box itself (a refusal, such as an item the buyer already has, stays on screen, unlike a toast),
 * and a successful add offers the way on to the cart.
 */
export function BuyBox({
  type,
  id,
  name,
  price,
  priceNote,
  owned,
}: {
  type: CartItemType;
  id: number;
  name: string;
  price: string;
  priceNote?: string;
  /** what the buyer already has instead of a button (the server refuses the add anyway) */
  owned?: React.ReactNode;
}) {
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [added, setAdded] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const add = async () => {
    setBusy(true);
    setError(null);
    try {
      const res = await addToCart(type, id, 0);
      setAdded(res.message);
      await client.invalidateQueries({ queryKey: ['show-cart'] });
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label="Buy">
      <Stack gap="sm">
        <Text size="xl" fw={700}>
          {price}{' '}
          {priceNote ? (
            <Text span size="sm" c="dimmed" fw={400}>
              {priceNote}
            </Text>
          ) : null}
        </Text>
        {owned ? (
          owned
        ) : (
          <>
            <ErrorAlert message={error} />
            {added ? (
              <>
                <SuccessAlert message={added} />
                <Group>
                  <Button component={Link} to="/cart">
                    Go to cart
                  </Button>
                  <Anchor component={Link} to="/courses" size="sm">
                    Keep browsing
                  </Anchor>
                </Group>
              </>
            ) : (
              <Group>
                <Button
                  leftSection={<IconShoppingCartPlus size={18} aria-hidden />}
                  loading={busy}
                  onClick={add}
                  // starts with the visible words, so speech control finds it (WCAG 2.5.3)
                  aria-label={`Add to cart: ${name}`}
                >
                  Add to cart
                </Button>
              </Group>
            )}
          </>
        )}
      </Stack>
    </Card>
  );
}
