def copy_all(a, b, c, d):
    return a.clone(), b.clone(), c.clone(), d.clone()
